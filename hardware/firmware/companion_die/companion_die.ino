// companion_die.ino - an electronic die for the table companion.
//
// Speaks the companion's serial die protocol (docs/readme/hardware.md), ASCII lines at
// 115200 baud ending in CR LF:
//   HELLO companion-die 1.0   once after reset
//   ROLLING                   while the die is being shaken (at most every 250 ms)
//   ROLL a b                  the throw, one value per die
//   BATT n                    battery percent, every 60 s (only with BATTERY_PIN defined)
//
// Wiring (see the README's table): a push button or a tilt/ball switch between pin 2 and
// GND (internal pull-up); the onboard LED (pin 13) lights while rolling; analog pin A0 left
// unconnected seeds the random generator with noise. Optional: a battery divider on A1.
//
// How a roll works: the switch closing starts "shaking"; every edge after that (contact
// bounce, a tilt switch chattering while shaken) keeps it shaking; when the switch has been
// quiet for SETTLE_MS the dice land and ROLL is sent. The settle time is the debounce: a
// plain push button gives a few ROLLING lines and then one throw.
//
// Settings: DICE (2 for Kat en Muis, 1 for Chop! Chop! and Kilkenny Cats) and FACES below.
// For the Chop! Chop! cat die use FACE_TABLE {1,1,2,2,2,3}; for the mouse die {1,1,2,2,3,4}.

const long BAUD = 115200;        // 9600 is accepted by the companion too
const int SWITCH_PIN = 2;        // button or tilt switch to GND
const int LED_PIN = LED_BUILTIN; // lights while rolling
const int SEED_PIN = A0;         // floating analog pin: noise for randomSeed()
// #define BATTERY_PIN A1        // uncomment with a divider: battery+ -100k- A1 -100k- GND

const int DICE = 2;
const int FACES = 6;
// Faces of each die, in order; a die with repeated faces (Chop! Chop!) lists them all.
const int FACE_TABLE[FACES] = {1, 2, 3, 4, 5, 6};

const unsigned long SETTLE_MS = 600;   // quiet time after shaking before the dice "land"
const unsigned long ROLLING_EVERY_MS = 250;
const unsigned long BATT_EVERY_MS = 60000UL;

bool lastRaw = HIGH;
bool shaking = false;
unsigned long lastShake = 0;
unsigned long lastRolling = 0;
unsigned long lastBatt = 0;

void setup() {
  pinMode(SWITCH_PIN, INPUT_PULLUP);
  pinMode(LED_PIN, OUTPUT);
  digitalWrite(LED_PIN, LOW);
  // Mix several noisy readings so two dice powered up together do not share a sequence.
  unsigned long seed = 0;
  for (int i = 0; i < 32; i++) {
    seed = (seed << 1) ^ analogRead(SEED_PIN) ^ micros();
    delay(1);
  }
  randomSeed(seed);
  Serial.begin(BAUD);
  while (!Serial && millis() < 2000) {
    // boards with native USB: wait briefly for the host to open the port
  }
  Serial.print("HELLO companion-die 1.0\r\n");
}

void sendRolling(unsigned long now) {
  if (now - lastRolling >= ROLLING_EVERY_MS) {
    Serial.print("ROLLING\r\n");
    lastRolling = now;
  }
}

void sendThrow() {
  Serial.print("ROLL");
  for (int d = 0; d < DICE; d++) {
    Serial.print(' ');
    Serial.print(FACE_TABLE[random(FACES)]);  // random(n) is 0..n-1, uniform
  }
  Serial.print("\r\n");
}

#ifdef BATTERY_PIN
void sendBattery(unsigned long now) {
  if (now - lastBatt < BATT_EVERY_MS && lastBatt != 0) return;
  lastBatt = now;
  // 1:2 divider on a 5 V board: 3.0 V cell = 0 %, 4.2 V = 100 %
  long mv = analogRead(BATTERY_PIN) * 2L * 5000L / 1023L;
  long pct = (mv - 3000L) * 100L / 1200L;
  if (pct < 0) pct = 0;
  if (pct > 100) pct = 100;
  Serial.print("BATT ");
  Serial.print(pct);
  Serial.print("\r\n");
}
#endif

void loop() {
  unsigned long now = millis();
  bool raw = digitalRead(SWITCH_PIN);
  if (raw != lastRaw) {  // any edge: contact bounce and tilt-switch chatter both mean "shaking"
    lastRaw = raw;
    if (raw == LOW && !shaking) {  // closed: a press, or the tilt switch flipped
      shaking = true;
      digitalWrite(LED_PIN, HIGH);
    }
    lastShake = now;
  }
  if (shaking) {
    sendRolling(now);
    if (now - lastShake >= SETTLE_MS) {  // quiet for SETTLE_MS: the dice have landed
      shaking = false;
      digitalWrite(LED_PIN, LOW);
      sendThrow();
    }
  }
#ifdef BATTERY_PIN
  sendBattery(now);
#endif
}
