# shellcheck shell=bash
# What the fuzz scripts share about the targets: sourced by fuzz/ci.sh,
# fuzz/campaign.sh, fuzz/check-cflite-build.sh and .clusterfuzzlite/build.sh.
# tests/fuzz_replay.rs checks it against rotation_game::fuzzing::TARGETS.

# The targets that read binary board encodings: the text format's dictionary
# fuzz/rotation.dict is no help to them.
NO_DICTIONARY_TARGETS="board board_deep solve"

# uses_dictionary TARGET: whether TARGET is fuzzed with fuzz/rotation.dict.
uses_dictionary() {
    case " $NO_DICTIONARY_TARGETS " in
        *" $1 "*) return 1 ;;
        *) return 0 ;;
    esac
}
