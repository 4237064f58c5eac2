// Runs companion_die.ino on the host with simulated time and a simulated switch:
// three button presses, then one second of tilt-switch chatter. Prints what the die sends.
#include "arduino_stub.h"
#include "../../../hardware/firmware/companion_die/companion_die.ino"
int main() {
  setup();
  for (int press = 0; press < 3; press++) {
    for (int t = 0; t < 2000; t++) { sw = (t >= 100 && t < 180) ? 0 : 1; fake_ms++; loop(); }
  }
  for (int t = 0; t < 3000; t++) { sw = (t < 1000) ? ((t / 7) % 2) : 1; fake_ms++; loop(); }
  return 0;
}
