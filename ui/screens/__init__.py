"""The app's screens; each has a .kv file of the same name beside it."""
