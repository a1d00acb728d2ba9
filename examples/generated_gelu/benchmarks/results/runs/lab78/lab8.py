# ruff: noqa: E402
"""Lab call 8: lab7.py's forward timing with a float32 bias and a half x, for the candidate that sends
N not a multiple of the vector width to the row strips when the bias is wider than x (csrc_rule)
against lab 7's `new` (csrc_new). N = 1000 takes the same kernel in both (the noise)."""

import lab
import lab7

lab7.CSRC = {"new": "csrc_new", "rule": "csrc_rule"}
lab.VARIANTS = {name: {} for name in lab7.CSRC}
lab7.SHAPES = [(32768, 1023), (16384, 2047), (4096, 1023), (32768, 1000)]

if __name__ == "__main__":
    lab7.main()  # writes lab7.json into $OUT
