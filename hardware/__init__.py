"""Hardware adapters: the serial electronic die, the GPIO button panel, virtual dice."""
