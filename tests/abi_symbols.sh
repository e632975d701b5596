#!/usr/bin/env bash
# ABI.md's symbol table must list exactly the symbols librmg.so exports (issue 2).
set -euo pipefail
build=$1
src=$2
lib=$(readlink -f "$build/librmg.so" 2>/dev/null || true) # the link names the current build, not a stale SONAME
[ -n "$lib" ] && [ -f "$lib" ] || { echo "abi_symbols: librmg.so not found in $build"; exit 1; }
exported=$(nm -D --defined-only "$lib" | awk '$2 ~ /^[TDBRWV]$/ {print $3}' | sed 's/@.*//' | sort -u)
documented=$(sed -n '/<!-- symbols:begin -->/,/<!-- symbols:end -->/p' "$src/ABI.md" \
             | sed -n 's/^| `\(rmg_[a-z0-9_]*\)` |.*/\1/p' | sort -u)
missing=$(comm -23 <(echo "$exported") <(echo "$documented"))
stale=$(comm -13 <(echo "$exported") <(echo "$documented"))
status=0
if [ -n "$missing" ]; then echo "exported but not in ABI.md:"; echo "$missing"; status=1; fi
if [ -n "$stale" ]; then echo "in ABI.md but not exported:"; echo "$stale"; status=1; fi
bad=$(echo "$exported" | grep -v '^rmg_' || true)
if [ -n "$bad" ]; then echo "exported without the rmg_ prefix:"; echo "$bad"; status=1; fi
count=$(echo "$exported" | wc -l)
[ $status -eq 0 ] && echo "abi_symbols: $count exported symbols, all documented"
if [ $status -eq 0 ]; then echo "1 passed, 0 failed"; else echo "0 passed, 1 failed"; fi
exit $status
