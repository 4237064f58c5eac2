"""Reusable widgets: styled buttons and labels, the board view, dice, the toast, the chips plot."""
