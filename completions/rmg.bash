# bash completion of the rmg command (installed as share/bash-completion/completions/rmg).
# Commands, their options, the values of options that take a word, and file names.

_rmg_options() {
    local gen="--template --size --underground --no-underground --players --humans --water --monsters --town --seed --game"
    local best="--best-of --threads --day-points"
    case "$1" in
        generate) echo "$gen $best -o --timings --quiet --help" ;;
        check) echo "--quiet --errors --from --format --water --game --help" ;;
        convert) echo "--from --h3t --help" ;;
        objects) echo "--zone --template --json --help" ;;
        guard) echo "--value --zone-strength --map-strength --connection --factions --creatures --seed --json --help" ;;
        info) echo "--content --sod --load --merge --list --json --help" ;;
        stats) echo "$gen --runs --threads --first-seed --balance --json --fingerprints --help" ;;
        balance) echo "$gen $best --json -o --help" ;;
        render) echo "-o --legend --sod --help" ;;
    esac
}

_rmg_values() {
    case "$1" in
        --size) echo "S M L XL H XH G" ;;
        --water) echo "none normal islands" ;;
        --monsters | --map-strength) echo "weak normal strong" ;;
        --zone-strength) echo "none weak medium strong" ;;
        --game) echo "hota sod" ;;
        --format | --from) echo "auto yaml h3t sod vcmi" ;;
        --h3t) echo "1.7 1.8" ;;
        --list) echo "terrains factions creatures objects map_objects artifacts spells skills heroes" ;;
    esac
}

_rmg() {
    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]}
    COMPREPLY=()
    if [ "$COMP_CWORD" -eq 1 ]; then
        mapfile -t COMPREPLY < <(compgen -W "generate check convert objects guard info stats balance render --help --version" -- "$cur")
        return
    fi
    case "$prev" in
        -o | --load | --merge)
            mapfile -t COMPREPLY < <(compgen -f -- "$cur")
            return ;;
        --seed | --players | --humans | --runs | --threads | --first-seed | --value | --zone | --template | --factions | \
        --town | --best-of | --day-points)
            return ;;   # a number or a name: nothing to offer
    esac
    local values
    values=$(_rmg_values "$prev")
    if [ -n "$values" ]; then
        mapfile -t COMPREPLY < <(compgen -W "$values" -- "$cur")
    elif [[ $cur == -* ]]; then
        mapfile -t COMPREPLY < <(compgen -W "$(_rmg_options "${COMP_WORDS[1]}")" -- "$cur")
    else
        mapfile -t COMPREPLY < <(compgen -f -- "$cur")
    fi
}
complete -o filenames -F _rmg rmg
