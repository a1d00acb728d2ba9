"""The text edits of labs R1 to R3's patches (lab_patch.py, lab_patch3.py) to a rendered project's
csrc/row_norm/cuda.cuh."""


class Source:
    def __init__(self, project):
        self.path = project + "/csrc/row_norm/cuda.cuh"
        with open(self.path) as f:
            self.text = f.read()

    def rep(self, old, new, count=1):
        """Replaces old, which must stand `count` times, by new."""
        assert self.text.count(old) == count, (old, self.text.count(old))
        self.text = self.text.replace(old, new)

    def save(self):
        with open(self.path, "w") as f:
            f.write(self.text)
