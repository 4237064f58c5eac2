"""OpenCV stages: dice, board location, pieces, tiles, camera sources."""
