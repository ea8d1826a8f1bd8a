#!/bin/sh
# ExecStartPre of tabletop-companion.service. SDL2 on KMS/DRM needs a connected screen whose /dev/dri/cardN
# this user may open; without one Kivy logs some 90 lines of traceback and systemd restarts the app every
# 2 s, forever. Here the journal gets one sentence instead, and the start waits quietly for the screen.
# DRM_SYSFS and DRM_DEV stand in for /sys/class/drm and /dev/dri in the tests.
drm=${DRM_SYSFS:-/sys/class/drm}
dev=${DRM_DEV:-/dev/dri}
wait_seconds=${DISPLAY_WAIT_SECONDS:-45} # below the unit's TimeoutStartSec=60, leaving the app time to start

# Prints nothing and succeeds when a screen is ready; otherwise prints why not.
screen_ready() {
    found_card=""
    for status in "$drm"/card*-*/status; do
        [ -e "$status" ] || continue
        connector=$(basename "$(dirname "$status")")
        card=${connector%%-*}
        found_card="$card"
        [ "$(cat "$status" 2>/dev/null)" = connected ] || continue
        if [ -r "$dev/$card" ] && [ -w "$dev/$card" ]; then
            return 0
        fi
        echo "<4>The screen on $connector is connected, but $dev/$card is not open to user $(id -un): it needs" \
            "the video and render groups (sudo make install adds them). Waiting ${wait_seconds} s, then retrying."
        return 1
    done
    if [ -z "$found_card" ]; then
        echo "<4>No KMS/DRM display device (no $drm/card*-*): on Raspberry Pi OS, dtoverlay=vc4-kms-v3d belongs" \
            "in /boot/firmware/config.txt. Waiting ${wait_seconds} s, then retrying."
    else
        echo "<4>No screen is connected (every $drm/card*-*/status says otherwise): check the display's ribbon" \
            "or HDMI cable. The app starts as soon as one is connected."
    fi
    return 1
}

said=$(screen_ready) && exit 0
echo "$said"
waited=0
while [ "$waited" -lt "$wait_seconds" ]; do
    sleep 1
    waited=$((waited + 1))
    screen_ready >/dev/null && exit 0
done
exit 1
