# Sourced by verify-package.sh and verify-package-bt.sh (which define `say`
# and `seed`): writes the package of seed $seed with $ROTATION_GAME, or with
# a release build made here, into $PACKAGE_DIR/rotationgame, or into a
# temporary folder removed on exit. Sets rotation_game (an absolute path),
# work (the folder) and problem (the package).
rotation_game="${ROTATION_GAME:-target/release/rotation-game}"
if [ -z "${ROTATION_GAME:-}" ]; then
    say "building rotation-game"
    cargo build --release --quiet
fi
rotation_game=$(realpath "$rotation_game")
work="${PACKAGE_DIR:-$(mktemp -d)}"
[ -n "${PACKAGE_DIR:-}" ] || trap 'rm -rf "$work"' EXIT
mkdir -p "$work"
problem="$work/rotationgame"
rm -rf "$problem"

say "writing the package of seed $seed to $problem"
"$rotation_game" package "$problem" --seed "$seed"
