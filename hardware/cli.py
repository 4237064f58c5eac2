"""Fallback command line for the serial die: ``python -m hardware.cli watch --serial PORT``.

``companion dice watch --serial ...`` (in ``vision.cli``) calls the same
:func:`hardware.serialdie.watch_serial`; this entry works without the vision package.
Also ``ports`` lists the serial ports and which one would be picked automatically.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from hardware.protocol import BAUD_RATES, GAME_DICE


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m hardware.cli", description="The serial electronic die.")
    sub = parser.add_subparsers(dest="command", required=True)
    watch = sub.add_parser("watch", help="print each throw of a serial die as a JSON line")
    watch.add_argument("--serial", required=True, metavar="PORT_OR_URL",
                       help="device path or pyserial URL, or 'auto' to find a USB serial device")
    watch.add_argument("--baud", type=int, choices=list(BAUD_RATES), default=BAUD_RATES[0])
    watch.add_argument("--game", choices=list(GAME_DICE), default=None,
                       help="check the values against this game's dice (default: any 1-6)")
    watch.add_argument("--jsonl", action="store_true", help="JSON lines on stdout (the only format)")
    sub.add_parser("ports", help="list serial ports")
    args = parser.parse_args(argv)

    from hardware import serialdie

    if args.command == "ports":
        for line in serialdie.describe_ports():
            print(line)
        print(f"auto: {serialdie.find_port() or 'none found'}")
        return 0
    return serialdie.watch_serial(args.serial, args.baud, sys.stdout, sys.stderr, args.game)


if __name__ == "__main__":
    sys.exit(main())
