"""``companion say TEXT``: speak a sentence (or write it to a WAV file) to check a Pi's audio.

::

    companion say "Mouse throws a four."              # on ALSA's default device
    companion say "De muis gooit vier." --lang nl
    companion say "Bonjour" --lang fr -o /tmp/bonjour.wav
    companion say "Test" --device plughw:CARD=Headphones

Exit status 0 when the sentence was spoken or written, 1 when it could not be (the reason is
printed: no engine, no sound device), 2 for bad arguments.
"""

from __future__ import annotations

import argparse
import sys
import wave
from collections.abc import Sequence

from companion.i18n import _, language_from_env
from companion.outfile import OutputFileError, check_output
from companion.textsafe import printable
from hardware.audio import AplayOutput, AudioOutput, WavFileOutput
from hardware.espeak import LANGUAGE_VOICES, RATE_MAX, RATE_MIN, VARIANTS
from hardware.speech import ENGINES, READY, Speaker, VoiceSettings


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="companion say", description=_("Speak a sentence, to check the sound."))
    p.add_argument("text", nargs="+", help=_("the sentence"))
    p.add_argument("--lang", choices=sorted(LANGUAGE_VOICES),
                   help=_("the language whose voice speaks it (default: from LANG)"))
    p.add_argument("-o", "--output", metavar="FILE.wav", help=_("write a WAV file instead of playing it"))
    p.add_argument("--force", action="store_true", help=_("replace FILE.wav if it exists"))
    p.add_argument("--device", metavar="ALSA_DEVICE", help=_("play on this ALSA device (aplay -L lists them)"))
    p.add_argument("--variant", choices=[v or "standard" for v in VARIANTS], default="standard",
                   help=_("the voice variant"))
    p.add_argument("--rate", type=int, default=VoiceSettings().rate,
                   help=_("words per minute ({low}-{high})").format(low=RATE_MIN, high=RATE_MAX))
    p.add_argument("--volume", type=int, default=100, help=_("volume in percent (0-100)"))
    p.add_argument("--engine", default="espeak-ng", help=_("the speech engine ({known})").format(known=", ".join(ENGINES)))
    return p


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    text = printable(" ".join(args.text))
    if args.output:
        try:
            check_output(args.output, (".wav",), args.force)
        except OutputFileError as exc:
            print(_("companion say: {reason}").format(reason=exc), file=sys.stderr)
            return 2
    lang = args.lang or language_from_env()
    output: AudioOutput = WavFileOutput(path=args.output) if args.output else AplayOutput(args.device)
    settings = VoiceSettings(volume=args.volume, rate=args.rate, variant="" if args.variant == "standard" else args.variant)
    with Speaker(args.engine, output, settings=settings) as speaker:
        if not speaker.wait_idle(10):
            print(_("companion say: the voice did not start in time."), file=sys.stderr)
            return 1
        if speaker.status.state == READY:
            speaker.say(text, language=lang)
            speaker.wait_idle(120)
        done = bool(speaker.history) and speaker.history[-1].finished
        status = speaker.status
        voice = speaker.history[-1].voice if speaker.history else ""
    if not done or status.state != READY:
        print(_("companion say: {reason}").format(reason=status.describe()), file=sys.stderr)
        return 1
    if args.output:
        with wave.open(args.output, "rb") as w:
            seconds = w.getnframes() / w.getframerate()
        print(_("Wrote {path}: {seconds:.1f} s of speech (voice {voice}).")
              .format(path=args.output, seconds=seconds, voice=voice))
    else:
        print(_("Spoke {n} characters on {output} (voice {voice}).")
              .format(n=len(text), output=output.describe(), voice=voice))
    return 0


if __name__ == "__main__":
    sys.exit(main())
