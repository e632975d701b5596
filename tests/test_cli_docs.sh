#!/usr/bin/env bash
# The rmg command's companions (issue 21 point 6): every command's --help says its exit status;
# the man page (docs/rmg.1) and the bash and zsh completions (completions/) know every command
# and every option the --help texts name; the man page renders without warnings; the bash
# completion completes commands, options and option values. Usage: test_cli_docs.sh BUILD_DIR SOURCE_DIR
set -uo pipefail
rmg="$1/rmg"
src=$2
man="$src/docs/rmg.1"
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

# shellcheck source=/dev/null
. "$src/completions/rmg.bash"
commands=$("$rmg" --help | awk '/^commands:/ { on = 1; next } on && /^  [a-z]/ { print $1 }')
[ -n "$commands" ] && ok || bad "rmg --help lists no commands"
"$rmg" --help | grep -q 'exit status:' && ok || bad "rmg --help has no exit status"
for c in $commands; do
    help=$("$rmg" "$c" --help) || { bad "rmg $c --help fails"; continue; }
    grep -q 'exit status: 0' <<<"$help" && ok || bad "rmg $c --help says no exit status"
    grep -q "^\.SS $c\$" "$man" && ok || bad "the man page has no section for $c"
    grep -q "\\b$c)" "$src/completions/rmg.bash" && ok || bad "the bash completion does not know $c"
    grep -q "'$c:" "$src/completions/_rmg" && ok || bad "the zsh completion does not know $c"
    for opt in $(grep -oE '(^|[ [|])-(-[a-z][a-z0-9-]*|o )' <<<"$help" | tr -d ' [|' | sort -u); do
        [ "$opt" = --help ] && continue
        grep -qF -- "$(sed 's/-/\\-/g' <<<"$opt")" "$man" && ok || bad "the man page does not name rmg $c $opt"
        grep -qw -- "$opt" <<<" $(_rmg_options "$c") " && ok || bad "the bash completion of rmg $c lacks $opt"
        grep -qF -- "$opt[" "$src/completions/_rmg" && ok || bad "the zsh completion lacks $opt"
    done
done

# The PNG legend (issue 29): docs/png-preview.md holds every line rmg render --legend prints from
# the table the picture is drawn with.
legend=$("$rmg" render --legend | tail -n +2)
[ "$(wc -l <<<"$legend")" -ge 40 ] && ok || bad "rmg render --legend prints too little"
while IFS= read -r line; do
    grep -qxF -- "$line" "$src/docs/png-preview.md" || { bad "docs/png-preview.md lacks '$line'"; break; }
done <<<"$legend"
ok
"$rmg" render --legend --sod | grep -q '^  #[0-9a-f]\{6\}  dirt$' && ok || bad "rmg render --legend --sod"

if command -v groff >/dev/null; then
    warnings=$(groff -man -Tutf8 -ww -z "$man" 2>&1)
    [ -z "$warnings" ] && ok || bad "groff warns about the man page: $warnings"
fi

# The bash completion, as bash calls it.
complete_words() { # words... (the last is the one being completed)
    COMP_WORDS=("$@")
    COMP_CWORD=$(($# - 1))
    _rmg
    echo "${COMPREPLY[*]}"
}
[ "$(complete_words rmg gen)" = generate ] && ok || bad "rmg gen<TAB>: $(complete_words rmg gen)"
[ "$(complete_words rmg convert --h)" = "--h3t --help" ] && ok || bad "rmg convert --h<TAB>: $(complete_words rmg convert --h)"
[ "$(complete_words rmg generate --size X)" = "XL XH" ] && ok || bad "--size X<TAB>: $(complete_words rmg generate --size X)"
[ "$(complete_words rmg convert --h3t 1)" = "1.7 1.8" ] && ok || bad "--h3t 1<TAB>"

echo "test_cli_docs: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
