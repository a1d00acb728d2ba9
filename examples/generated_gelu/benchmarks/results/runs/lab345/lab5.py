"""Lab call 5: lab4.py's forward timing with the candidate header (csrc5: the rendered header with
lab_5_header.diff) and its variants, one more shape. (It ran as a copy of lab4.py with these three
changes; it is kept as them.)"""

import os

os.environ["LAB_CSRC"] = "csrc5"
import lab  # noqa: E402
import lab4  # noqa: E402

lab.VARIANTS = {"cand": {}, "u1b": dict(LAB_FU2=1), "u1n": dict(LAB_FU2=1, LAB_FMINB2=0)}

if __name__ == "__main__":
    lab4.main(shapes=[*lab4.LAB4_SHAPES, (4096, 1024)], out_name="lab5.json")
