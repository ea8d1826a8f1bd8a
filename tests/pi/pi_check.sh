#!/usr/bin/env bash
# `make pi-check`: the README's commands on arm64, in an emulated Debian bookworm (Raspberry Pi OS's base).
#
# As root on an x86_64 Debian: builds once (build/pi-root, kept) a bookworm arm64 root with debootstrap and
# qemu-user-static, then on a fresh layer over it (overlayfs; build/pi-run, remade each run) puts a clean clone
# of this checkout's HEAD in /home/pi and, as a new user `pi` would (sudo, no password, as Raspberry Pi OS's
# first user), runs
#   1. the README's set-up for `make run` (system packages, venv, Python packages),
#   2. `companion run` under Xvfb until its READY=1 (the first frame),
#   3. every golden script through `companion play`, its output compared with the same run on this host,
#   4. the tests that need neither Chromium, the firmware nor a window (see TESTS below),
#   5. `sudo make install` with systemd not running: the unit, `systemd-analyze verify`, the user and its
#      groups, and the installed (non-editable) app started from another directory, as the service's user,
#   6. start-up to the first frame against a bare Kivy app in the same root (their ratio),
# prints each step's time, and exits non-zero naming the step that failed.
# apt's and pip's downloads are kept in build/pi-cache between runs (the installs themselves are redone).
#
# PI_ROOT (the base root), PI_MIRROR (the Debian mirror) and HOST_PYTHON (this host's Python with the
# checkout's packages, for step 3) may be set.
set -euo pipefail

CHECKOUT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=$CHECKOUT/build
BASE=${PI_ROOT:-$BUILD/pi-root}
LAYER=$BUILD/pi-run
ROOT=$LAYER/root
CACHE=$BUILD/pi-cache
MIRROR=${PI_MIRROR:-http://deb.debian.org/debian}
HOST_PYTHON=${HOST_PYTHON:-$CHECKOUT/.venv/bin/python}
HOME_PI=/home/pi
CLONE=$HOME_PI/tabletop-companion
# Step 4: the tests whose result could differ on arm64, about 100 s natively: SQLite (the store), the engine
# and sessions, the displays' protocol (struct packing, HMAC) and links (ptys), the race buttons and the pin
# factory (gpiozero), the phone server (aiohttp), and the firmware's tests (those needing MicroPython are
# skipped there, saying why). Not the rest: ~15 min natively on 2 workers is hours under emulation, the UI
# tests draw with Mesa's software renderer under qemu (minutes a window), Chromium is no part of a Pi's set-up,
# and the golden games ran in step 3.
TESTS=(tests/core/test_engine.py tests/core/test_session.py tests/core/test_store.py
    tests/hardware/test_display_protocol.py tests/hardware/test_display_link.py tests/hardware/test_race_buttons.py
    tests/hardware/test_pins.py tests/hardware/test_phone_server.py tests/hardware/test_firmware.py)
TEST_FILTER="not ui and not slow"

STEP="prepare"
STARTED=$(date +%s)
STEP_STARTED=$STARTED
TIMES=()
MOUNTED=()

say() { printf '== pi-check: %s\n' "$*"; }
step() {
    STEP=$1
    STEP_STARTED=$(date +%s)
    say "$STEP"
}
done_step() {
    local seconds=$(($(date +%s) - STEP_STARTED))
    TIMES+=("$(printf '  %-68s %4d min %02d s' "$STEP" $((seconds / 60)) $((seconds % 60)))")
}

unmount_all() {
    local i
    for ((i = ${#MOUNTED[@]} - 1; i >= 0; i--)); do
        umount -R "${MOUNTED[i]}" 2>/dev/null || umount -lR "${MOUNTED[i]}" 2>/dev/null || true
    done
    MOUNTED=()
}
finish() {
    local status=$?
    unmount_all
    if [ "$status" -ne 0 ]; then
        say "FAILED in step: $STEP (exit status $status)"
    fi
    exit "$status"
}
trap finish EXIT
trap 'exit 130' INT TERM

# In the root as root, or as the new user pi (a login shell: HOME, PATH as on the Pi). A clean environment:
# none of this host's settings (pip's, the proxy's, DISPLAY) leak in.
in_root() { env -i TERM=dumb LANG=C.UTF-8 PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    HOME=/root /usr/sbin/chroot "$ROOT" /bin/bash -c "$1"; }
as_pi() { env -i TERM=dumb LANG=C.UTF-8 /usr/sbin/chroot "$ROOT" /usr/sbin/runuser -l pi -c "$1"; }
# What pi runs with sudo. Not sudo itself: under qemu-user a setuid program is not setuid (binfmt_misc's
# Debian registration lacks the C flag), so the root does it as root.
as_pi_sudo() { in_root "cd $CLONE && $1"; }

# -- prepare ----------------------------------------------------------------------------------------------

[ "$(id -u)" = 0 ] || { echo "make pi-check needs root (debootstrap, chroot, mounts): sudo make pi-check"; exit 1; }
[ "$(uname -m)" != aarch64 ] || echo "(this machine is arm64 itself: no emulation needed, qemu is not used)"
git -C "$CHECKOUT" diff --quiet HEAD -- || echo "(uncommitted changes are not checked: the clone is of HEAD)"
if [ ! -x "$HOST_PYTHON" ]; then
    echo "Step 3 compares with this host: HOST_PYTHON=$HOST_PYTHON is missing (make setup makes it)"
    exit 1
fi

step "prepare: debootstrap, qemu-user-static, binfmt_misc"
missing=""
for tool in debootstrap:debootstrap qemu-aarch64-static:qemu-user-static; do
    command -v "${tool%%:*}" >/dev/null || missing="$missing ${tool#*:}"
done
if [ -n "$missing" ]; then
    echo "Installing:$missing"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing >/dev/null
fi
if [ "$(uname -m)" != aarch64 ]; then
    grep -q ' /proc/sys/fs/binfmt_misc ' /proc/mounts || mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc
    if [ ! -e /proc/sys/fs/binfmt_misc/qemu-aarch64 ]; then
        # Debian's own registration line, with F: the interpreter is opened now, so it works inside a chroot.
        cat /usr/lib/binfmt.d/qemu-aarch64.conf >/proc/sys/fs/binfmt_misc/register
    fi
    grep -q '^flags: .*F' /proc/sys/fs/binfmt_misc/qemu-aarch64 ||
        { echo "qemu-aarch64 is registered without the F flag: it cannot run inside a chroot"; exit 1; }
fi
done_step

if [ ! -e "$BASE/.pi-check-base" ]; then
    step "prepare: debootstrap bookworm arm64 (once; kept in ${BASE#"$CHECKOUT"/})"
    rm -rf "$BASE.tmp"
    mkdir -p "$BUILD"
    # As Raspberry Pi OS Lite comes: Python 3.11, git, sudo, systemd, locales. make is not there (README step).
    debootstrap --arch=arm64 --include=ca-certificates,sudo,git,python3,systemd-sysv,locales \
        bookworm "$BASE.tmp" "$MIRROR" >"$BUILD/pi-debootstrap.log" 2>&1 ||
        { tail -20 "$BUILD/pi-debootstrap.log"; exit 1; }
    touch "$BASE.tmp/.pi-check-base"
    mv "$BASE.tmp" "$BASE"
    done_step
fi

step "prepare: a fresh root over the base, the clone in it"
grep -q " $LAYER" /proc/mounts && { echo "$LAYER is mounted: another pi-check running?"; exit 1; }
rm -rf "$LAYER"
mkdir -p "$LAYER/upper" "$LAYER/work" "$ROOT" "$CACHE/apt" "$CACHE/pip"
if mount -t overlay overlay -o "lowerdir=$BASE,upperdir=$LAYER/upper,workdir=$LAYER/work" "$ROOT" 2>/dev/null; then
    MOUNTED+=("$ROOT")
else
    echo "(no overlayfs here: copying the base instead)"
    cp -a "$BASE/." "$ROOT/"
fi
for fs in proc sys dev; do
    mount --rbind "/$fs" "$ROOT/$fs"
    mount --make-rslave "$ROOT/$fs"
    MOUNTED+=("$ROOT/$fs")
done
cp /etc/resolv.conf "$ROOT/etc/resolv.conf"
# This host's own certificate authorities (a TLS-inspecting proxy's, say): the root reaches the same registries
# through the same network. pip (bookworm's 23.0 in a new venv) reads its own bundle unless told, as here.
if compgen -G "/usr/local/share/ca-certificates/*.crt" >/dev/null; then
    mkdir -p "$ROOT/usr/local/share/ca-certificates"
    cp /usr/local/share/ca-certificates/*.crt "$ROOT/usr/local/share/ca-certificates/"
    cat /usr/local/share/ca-certificates/*.crt >>"$ROOT/etc/ssl/certs/ca-certificates.crt"
    printf '[global]\ncert = /etc/ssl/certs/ca-certificates.crt\n' >"$ROOT/etc/pip.conf"
fi
mount --bind "$CACHE/apt" "$ROOT/var/cache/apt/archives" && MOUNTED+=("$ROOT/var/cache/apt/archives")
in_root "useradd --create-home --shell /bin/bash --groups sudo,video,input,render pi &&
    echo 'pi ALL=(ALL) NOPASSWD: ALL' >/etc/sudoers.d/010_pi-nopasswd && chmod 440 /etc/sudoers.d/010_pi-nopasswd"
mkdir -p "$ROOT$HOME_PI/.cache/pip"
mount --bind "$CACHE/pip" "$ROOT$HOME_PI/.cache/pip" && MOUNTED+=("$ROOT$HOME_PI/.cache/pip")
git clone --quiet --no-hardlinks "$CHECKOUT" "$ROOT$CLONE"
git -C "$ROOT$CLONE" checkout --quiet "$(git -C "$CHECKOUT" rev-parse HEAD)"
echo "clone: $(git -C "$ROOT$CLONE" log --oneline -1)"
in_root "chown -R pi:pi $HOME_PI"
echo "root: $(in_root 'uname -m; . /etc/os-release; echo $PRETTY_NAME; python3 --version' | tr '\n' ' ')"
done_step

# -- 1. the README's set-up for `make run` ----------------------------------------------------------------

step "1. set-up for make run (system packages, venv, Python packages)"
# The README's first line on a fresh Raspberry Pi OS Lite, then `make setup` (what `make run` does before it
# opens the app). As pi, not root: it stops and names the `sudo apt-get install …` to run, which a new user
# runs; then again.
as_pi_sudo "apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq git make >/dev/null"
if ! as_pi "cd $CLONE && make setup" >"$LAYER/setup-1.log" 2>&1; then
    cat "$LAYER/setup-1.log"
    told=$(grep -o 'sudo apt-get install.*' "$LAYER/setup-1.log" || true)
    [ -n "$told" ] || exit 1
    as_pi_sudo "DEBIAN_FRONTEND=noninteractive ${told#sudo } -y -qq >/dev/null"
    as_pi "cd $CLONE && make setup"
else
    cat "$LAYER/setup-1.log"
fi
as_pi "cd $CLONE && KIVY_NO_CONSOLELOG=1 .venv/bin/python -c 'import kivy, gpiozero, serial, aiohttp; print(\"kivy\", kivy.__version__)' &&
    .venv/bin/pip list 2>/dev/null | grep -ci -E '^(pytest|mypy|ruff|selenium) ' | grep -qx 0 &&
    echo 'only what running needs: no pytest, mypy, ruff or selenium in .venv'"
done_step

# -- 2. companion run: the first frame ---------------------------------------------------------------------

step "2. companion run under Xvfb until READY (first frame)"
# Xvfb is the check's own tool (the Pi draws on KMS/DRM); make test would install it too.
in_root "DEBIAN_FRONTEND=noninteractive apt-get install -y -qq xvfb >/dev/null"
as_pi "cd $CLONE && python3 tests/pi/inside.py ready --env COMPANION_HOME=$HOME_PI/first-run -- .venv/bin/companion run"
done_step

# -- 3. every golden game, against this host ---------------------------------------------------------------

step "3. every golden script through companion play, against this host"
rm -rf "$LAYER/golden-host"
(cd /tmp && "$HOST_PYTHON" "$ROOT$CLONE/tests/pi/inside.py" golden "$LAYER/golden-host")
as_pi "cd /tmp && $CLONE/.venv/bin/python $CLONE/tests/pi/inside.py golden $HOME_PI/golden-arm64"
diff -r "$LAYER/golden-host" "$ROOT$HOME_PI/golden-arm64"
echo "the same output, byte for byte, on arm64 and $(uname -m)"
done_step

# -- 4. the tests ----------------------------------------------------------------------------------------

step "4. the tests (dev tools via make; no Chromium, firmware or window)"
as_pi "cd $CLONE && make .venv/.installed-dev"
as_pi "cd $CLONE && .venv/bin/python -m pytest -p no:cacheprovider -q -n 2 --dist loadgroup -m '$TEST_FILTER' \
    ${TESTS[*]} 2>&1 | tail -25; exit \${PIPESTATUS[0]}"
done_step

# -- 5. make install, systemd not running -------------------------------------------------------------------

step "5. sudo make install (systemd not running)"
as_pi_sudo "make install"
unit=$ROOT/etc/systemd/system/tabletop-companion.service
grep -q '@' "$unit" && { echo "placeholders left in the unit:"; grep -n '@' "$unit"; exit 1; }
in_root "systemd-analyze verify /etc/systemd/system/tabletop-companion.service"
echo "systemd-analyze verify: no complaint"
[ -L "$ROOT/etc/systemd/system/multi-user.target.wants/tabletop-companion.service" ] ||
    { echo "the unit is not enabled"; exit 1; }
in_root 'id companion && for g in dialout video input render; do id -nG companion | tr " " "\n" | grep -qx $g ||
    { echo "companion is not in $g"; exit 1; }; done; getent passwd companion | cut -d: -f6,7'
in_root 'cd / && /opt/tabletop-companion/.venv/bin/python -c "import ui, companion; print(ui.__file__)" |
    grep -q "^/opt/tabletop-companion/.venv/lib/" || { echo "not installed into the venv (editable?)"; exit 1; }'
echo "installed, not editable: ui/ is in /opt/tabletop-companion/.venv/lib/…/site-packages"
# No screen here: the installed ExecStartPre, as the service's user, says so in one sentence (and waits no
# longer than told).
said=$(in_root "DISPLAY_WAIT_SECONDS=0 runuser -u companion -- /opt/tabletop-companion/systemd/wait-for-display.sh" ||
    true)
[ "$(printf '%s\n' "$said" | wc -l)" = 1 ] && [[ $said == "<4>No "* ]] ||
    { echo "wait-for-display.sh without a screen said: $said"; exit 1; }
echo "without a screen, the journal would get: ${said#<4>}"
# The unit's own environment (its HOME, XDG directories), its user, from /: only the screen is Xvfb's.
environment="$(sed -n 's/^Environment=//p' "$unit" | grep -v -e '^SDL_VIDEODRIVER=' |
    sed 's/^/--env /' | tr '\n' ' ') --env SDL_VIDEODRIVER=x11"
in_root "cd / && python3 $CLONE/tests/pi/inside.py ready --cwd /var/lib/companion $environment -- \
    /usr/sbin/runuser -u companion -- /opt/tabletop-companion/.venv/bin/companion run --appliance"
done_step

# -- 6. start-up against bare Kivy --------------------------------------------------------------------------

step "6. start-up to the first frame against bare Kivy"
as_pi "cd $CLONE && .venv/bin/python tests/pi/inside.py startup 3" | tee "$LAYER/startup.txt"
done_step

STEP="finish"
total=$(($(date +%s) - STARTED))
say "every step passed on arm64 (emulated by qemu-user on $(uname -m)); times:"
printf '%s\n' "${TIMES[@]}"
printf '  %-68s %4d min %02d s\n' "total" $((total / 60)) $((total % 60))
grep -o 'start-up to the first frame: companion [^(]*' "$LAYER/startup.txt" | sed 's/^/  /'
