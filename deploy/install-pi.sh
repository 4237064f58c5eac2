#!/usr/bin/env bash
# Install the table companion as a kiosk on Raspberry Pi OS (Bookworm, desktop image).
# Run as the desktop user (not root) from the repository checkout:  ./deploy/install-pi.sh
# It uses sudo for the system parts (packages, groups, udev, screen blanking).
set -euo pipefail
cd "$(dirname "$0")/.."
REPO=$PWD
TARGET=$HOME/table-companion

echo "== system packages (Kivy's SDL2/GL libraries, the camera stack, the voice)"
sudo apt-get update -qq
sudo apt-get install -y -qq python3-venv python3-dev libgl1 libegl1 libgles2 libmtdev1 \
  libsdl2-2.0-0 libsdl2-image-2.0-0 libsdl2-ttf-2.0-0 python3-picamera2 x11-xserver-utils \
  espeak-ng alsa-utils

echo "== the app in $TARGET"
if [ "$REPO" != "$TARGET" ]; then
  mkdir -p "$TARGET"
  cp -a "$REPO"/. "$TARGET"/
fi
cd "$TARGET"
# --system-site-packages lets the venv see python3-picamera2 from apt
[ -d .venv ] || python3 -m venv --system-site-packages .venv
.venv/bin/pip install -q -e '.[pi]'

echo "== permissions: serial die (dialout), camera (video), GPIO (gpio)"
sudo usermod -aG dialout,video,gpio "$USER"
sudo cp deploy/99-companion-die.rules /etc/udev/rules.d/
sudo udevadm control --reload
sudo udevadm trigger

echo "== screen blanking off"
if command -v raspi-config >/dev/null; then
  sudo raspi-config nonint do_blanking 1 || true   # 1 = disable blanking
fi

echo "== kiosk start with the desktop session"
mkdir -p "$HOME/.config/systemd/user"
cp deploy/companion.service "$HOME/.config/systemd/user/"
systemctl --user daemon-reload
systemctl --user enable companion.service
sudo loginctl enable-linger "$USER"

echo "Done. Log out and in again (new groups), or reboot; the companion starts full screen."
echo "Logs: journalctl --user -u companion -f    Stop: systemctl --user stop companion"
