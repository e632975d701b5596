# Sourced by shell tests that run a program which is not itself a sanitizer build but loads one
# (the Python interpreter, a client linked to an installed librmg.so of an ASan build): the ASan
# runtime must then be the first library of the process, so it is preloaded (the exact libasan
# the library links, found with ldd) and leak detection is turned off, since such a host never
# frees everything.
#
# asan_preload_for LIB NAME: sets LD_PRELOAD and ASAN_OPTIONS when LIB links libasan (exits 1
# when its runtime cannot be found); returns 0 then, 1 when LIB is no sanitizer build.
asan_preload_for() {
    local asan
    asan=$(ldd "$1" 2>/dev/null | awk '/libasan/ && !found { print $3; found = 1 }')   # reads to the end: no SIGPIPE for ldd
    [ -n "$asan" ] || return 1
    if [ ! -e "$asan" ]; then
        asan=$(gcc -print-file-name=libasan.so 2>/dev/null || true)
    fi
    if [ -z "$asan" ] || [ ! -e "$asan" ]; then
        echo "$2: $1 links libasan but its runtime was not found"
        exit 1
    fi
    export LD_PRELOAD="$asan${LD_PRELOAD:+ $LD_PRELOAD}"
    export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
    echo "$2: sanitizer build, preloading $asan"
    return 0
}
