# Sourced by the shell tests (after setting `src`, the checkout): where the shared folder is
# ($RMG_SHARED_DIR, else ../shared beside the checkout) and how a test skips without it.
# A skip is exit 77, which CTest reports as skipped (SKIP_RETURN_CODE in tests/CMakeLists.txt).
shared=${RMG_SHARED_DIR:-$src/../shared}
shared_skipped=0

# Says in one line that `path` (under the shared folder) is absent.
shared_absent_note() {
    echo "SKIPPED: $shared/$1 is absent (the shared folder: template corpus, fact tables, game maps;" \
         "set RMG_SHARED_DIR or put it beside the checkout as ../shared)"
}

# need_shared PATH...: skips the whole test unless every PATH exists under the shared folder.
need_shared() {
    for p in "$@"; do
        if [ ! -e "$shared/$p" ]; then
            shared_absent_note "$p"
            exit 77
        fi
    done
}

# have_shared PATH: true if it exists; else notes it, and the test ends skipped (see
# shared_exit) after running the checks that do not need it.
have_shared() {
    [ -e "$shared/$1" ] && return 0
    shared_absent_note "$1"
    shared_skipped=1
    return 1
}

# shared_exit STATUS: STATUS when it is a failure; 77 when a part was skipped; else 0.
shared_exit() {
    if [ "$1" -ne 0 ]; then exit "$1"; fi
    if [ "$shared_skipped" -ne 0 ]; then exit 77; fi
    exit 0
}
