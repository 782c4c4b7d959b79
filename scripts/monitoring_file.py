"""scripts/monitoring_file.py -- what scripts/monitoring_check.py and
scripts/monitoring_plant.py share: the TAP-like report lines and a reader of
postgres_exporter's queries file.

The queries file is YAML; it is written so that these few lines read it:
"KEY:" at column 0, "  query: |" with the query indented by four spaces
below it, "    - column: {usage: USAGE, ...}" for its metrics.
"""
import re


class Report:
    """Prints "ok N - what" / "not ok N - what: detail" and counts failures."""

    def __init__(self):
        self.n = self.failed = 0

    def __call__(self, what, ok, detail=""):
        self.n += 1
        if ok:
            print(f"ok {self.n} - {what}")
        else:
            self.failed += 1
            print(f"not ok {self.n} - {what}" + (f": {detail}" if detail else ""))

    def summary(self, name):
        """Print the totals; the exit status (1 when a check failed)."""
        print(f"{name}: {self.n - self.failed} passed, {self.failed} failed")
        return 1 if self.failed else 0


def read_queries(path):
    """{key: {"query": text, "metrics": {column: usage}}} of a queries file."""
    out, key, block = {}, None, None

    def close():
        if block is not None:
            out[key]["query"] = "".join(block).strip()

    for line in open(path):
        m = re.match(r"^([a-z_]+):\s*$", line)
        if m:
            close()
            key, block = m.group(1), None
            out[key] = {"query": "", "metrics": {}}
            continue
        if block is not None:
            if line.strip() == "" or line.startswith("    "):
                block.append(line[4:])
                continue
            close()
            block = None
        if key and re.match(r"^  query: \|\s*$", line):
            block = []
            continue
        m = re.match(r"^\s+- ([a-z_]+): \{usage: ([A-Z]+)", line)
        if m and key:
            out[key]["metrics"][m.group(1)] = m.group(2)
    close()
    return out


def metric_names(queries):
    """{metric name: usage} of the queries file's metrics (labels and discarded columns left out)."""
    return {f"{key}_{col}": usage for key, q in queries.items()
            for col, usage in q["metrics"].items() if usage not in ("LABEL", "DISCARD")}
