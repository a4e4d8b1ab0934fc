#!/usr/bin/env bash
# Compares what two rotation-game binaries print: `solve`'s standard output,
# standard error and exit status on a corpus of valid and broken inputs, given
# as a named file, a redirected standard input and a pipe, on 1, 2 and 3
# threads, with and without --keep-going, in the judge and JSON formats (JSON
# without its microseconds); `check`'s verdicts on right and damaged outputs.
#
#   benches/measure/identical.sh BEFORE AFTER WORK_DIR
#
# Prints one line per difference and a summary; exits 1 on any difference.
set -euo pipefail
before=$1
after=$2
work=$3
mkdir -p "$work"
cd "$work"

gen() { # name, then gen's arguments
    local name=$1
    shift
    [ -f "$name" ] || "$before" gen "$@" > "$name"
}
gen uniform-1m.txt --seed 1 --uniform --boards 1000000
for length in $(seq 0 13); do
    gen "length-$length.txt" --seed "$((100 + length))" --length "$length" --boards 3000
done
gen hardest.txt --hardest
gen scramble-20.txt --seed 7 --scramble 20 --boards 100000
cat length-*.txt | grep -v '^0$' > lengths.txt
echo 0 >> lengths.txt

# Broken inputs, each breaking the canonical form at a different place (a
# chunk of the parallel file reader is 4,096 lines).
head -n 200000 uniform-1m.txt > base.txt
edit() { # name, sed script
    [ -f "$1" ] || sed "$2" base.txt > "$1"
}
edit edge-crlf.txt 's/$/\r/'
edit edge-bad-digit.txt '50001s/1/7/'
edit edge-leading-blank.txt '100001s/^/ /'
edit edge-trailing-space-chunk-end.txt '4096s/$/ /'
edit edge-terminator-then-junk.txt '8191s/$/\n0\njunk 9 9/'
edit edge-case-over-two-lines.txt '12000s/ /\n/'
edit edge-ninth-digit.txt '70000s/^2/1/;70000s/ 2/ 1/'
edit edge-zero-inside.txt '150000s/ 3 / 0 /'
[ -f edge-no-terminator.txt ] || head -n 150000 base.txt > edge-no-terminator.txt
[ -f edge-no-final-newline.txt ] || head -c -1 edge-no-terminator.txt > edge-no-final-newline.txt
[ -f edge-cut-short.txt ] || { head -n 9000 base.txt; echo "1 2 3 1 2 3"; } > edge-cut-short.txt
[ -f edge-long-terminator.txt ] || { head -n 4096 base.txt; printf '0%46s\n' ''; tail -n 10 base.txt; } > edge-long-terminator.txt
[ -f edge-empty.txt ] || : > edge-empty.txt

run() { # binary, mode, file, solve's arguments
    local binary=$1 mode=$2 file=$3
    shift 3
    case $mode in
        file) "$binary" solve "$@" "$file" ;;
        redirect) "$binary" solve "$@" < "$file" ;;
        pipe) cat "$file" | "$binary" solve "$@" ;;
    esac
}

compared=0
differences=0
compare() { # what, then the command's words with BINARY for the binary
    local what=$1
    shift
    local status_before=0 status_after=0
    "${@/#BINARY/$before}" > out.before 2> err.before || status_before=$?
    "${@/#BINARY/$after}" > out.after 2> err.after || status_after=$?
    sed -i 's/"microseconds":[0-9]*//' out.before out.after
    compared=$((compared + 1))
    if [ "$status_before" != "$status_after" ] || ! cmp -s out.before out.after || ! cmp -s err.before err.after; then
        echo "DIFFERENT: $what (exit $status_before vs $status_after)"
        differences=$((differences + 1))
    fi
}

inputs=(uniform-1m.txt lengths.txt hardest.txt scramble-20.txt edge-*.txt)
for file in "${inputs[@]}"; do
    for mode in file redirect pipe; do
        for threads in 1 2 3; do
            compare "$file $mode --threads $threads" run BINARY "$mode" "$file" --threads "$threads"
            compare "$file $mode --threads $threads --keep-going" \
                run BINARY "$mode" "$file" --threads "$threads" --keep-going
        done
    done
done
for file in lengths.txt hardest.txt edge-bad-digit.txt; do
    for threads in 1 2; do
        compare "$file --format json --threads $threads" \
            run BINARY file "$file" --format json --threads "$threads" --keep-going
    done
done
# The slower solvers on a few boards of each length they answer quickly.
for length in $(seq 0 11); do
    [ -f "few-$length.txt" ] || { head -n 30 "length-$length.txt"; echo 0; } > "few-$length.txt"
    compare "few-$length.txt --solver ida" run BINARY file "few-$length.txt" --solver ida
    if [ "$length" -le 8 ]; then
        compare "few-$length.txt --solver bfs" run BINARY file "few-$length.txt" --solver bfs
    fi
done

# check: the right answers, and damaged ones.
"$before" solve lengths.txt > answers.txt
sed '2s/.*/3/' answers.txt > wrong-digit.txt
sed '1s/^\(.\)\(.\)/\2\1/' answers.txt > swapped.txt
sed 's/$/ /' answers.txt > trailing.txt
sed 's/$/\r/' answers.txt > crlf.txt
head -n -1 answers.txt > truncated.txt
{ cat answers.txt; echo extra; } > extra.txt
for output in answers.txt wrong-digit.txt swapped.txt trailing.txt crlf.txt truncated.txt extra.txt; do
    for flags in "" "--strict" "--output-limit 1000"; do
        # shellcheck disable=SC2086
        compare "check $output $flags" BINARY check lengths.txt "$output" $flags
    done
done

echo "$compared comparisons, $differences different"
[ "$differences" = 0 ]
