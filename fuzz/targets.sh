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

# The targets that run another program on every input (the problem
# package's standalone validator and checker, built with g++ on first use,
# or found in standalone/ beside the fuzz binary): slow, a process per input.
# ClusterFuzzLite's build.sh builds those programs into $OUT/standalone/.
PROCESS_TARGETS="standalone_checker standalone_validator"

# runs_programs TARGET: whether TARGET runs another program on every input.
runs_programs() {
    case " $PROCESS_TARGETS " in
        *" $1 "*) return 0 ;;
        *) return 1 ;;
    esac
}

# The slow targets and the time one input may take before libFuzzer calls it
# a timeout, in seconds: board_deep runs ida on boards of up to 13 moves
# (0.4 s in a release build, several times that under AddressSanitizer on a
# loaded machine), the others take milliseconds at most.
SLOW_TARGETS="board_deep"
SLOW_INPUT_TIMEOUT=120
INPUT_TIMEOUT=10

# input_timeout TARGET: libFuzzer's -timeout for TARGET.
input_timeout() {
    case " $SLOW_TARGETS " in
        *" $1 "*) echo "$SLOW_INPUT_TIMEOUT" ;;
        *) echo "$INPUT_TIMEOUT" ;;
    esac
}

# each_target JOBS COMMAND TARGET...: runs `COMMAND TARGET` in the background
# for every TARGET, at most JOBS at a time, and waits for them all; returns 1
# when any of them failed. Background jobs started before (a load sampler)
# are not waited for.
each_target() {
    local jobs="$1" command="$2" target running=0 status=0
    shift 2
    for target in "$@"; do
        if [ "$running" -ge "$jobs" ]; then
            wait -n || status=1
            running=$((running - 1))
        fi
        "$command" "$target" &
        running=$((running + 1))
    done
    while [ "$running" -gt 0 ]; do
        wait -n || status=1
        running=$((running - 1))
    done
    return "$status"
}
