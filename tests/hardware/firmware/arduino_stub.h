// A minimal stand-in for Arduino.h so the sketch compiles and runs on the host (tests only).
#include <cstdio>
#include <cstdlib>
#include <algorithm>
#define HIGH 1
#define LOW 0
#define INPUT_PULLUP 2
#define OUTPUT 1
#define LED_BUILTIN 13
#define A0 14
#define A1 15
using std::max;
static unsigned long fake_ms = 0;
unsigned long millis() { return fake_ms; }
unsigned long micros() { return fake_ms * 1000; }
void delay(unsigned long) {}
int analogRead(int) { return rand() % 1024; }
static int sw = 1;
int digitalRead(int) { return sw; }
void digitalWrite(int, int) {}
void pinMode(int, int) {}
void randomSeed(unsigned long s) { srand(s); }
long random(long n) { return rand() % n; }
struct S { void begin(long) {} operator bool() { return true; }
  void print(const char* s) { fputs(s, stdout); } void print(char c) { putchar(c); }
  void print(int v) { printf("%d", v); } void print(long v) { printf("%ld", v); } } Serial;
