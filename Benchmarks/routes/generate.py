#!/usr/bin/env python3
"""Writes the routes benchmark's inputs: for each size N, a config with N link patterns (N/10 entry points
of 10 patterns each, in four shapes: an int, a uuid with an enum query parameter, a percent-encoded string
with an optional int, a rest of path), its generated routes (Sources/RoutesN, by `trackc generate`), the
patterns as lines for the baselines, and 1,000 URLs that match (and 1 in 10 that match nothing).

    python3 Benchmarks/routes/generate.py [TRACKC] [SIZES...]
"""
import os
import random
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
WORK = os.path.join(HERE, "work")

SHAPES = [
    ("ProductScreen", "/a{i}x{j}/items/{{id:int}}"),
    ("OrderScreen", "/b{i}x{j}/orders/{{id:uuid}}?tab={{tab:enum(items|billing)=items}}"),
    ("SearchScreen", "/c{i}x{j}/search/{{q:string}}?page={{page:int?}}"),
    ("FileScreen", "/d{i}x{j}/files/{{rest:path}}"),
]


def url(shape, i, j, rng):
    prefix = "https://bench.example.com"
    if shape == 0:
        return f"{prefix}/a{i}x{j}/items/{rng.randrange(1, 10**9)}"
    if shape == 1:
        tab = rng.choice(["", "?tab=billing", "?tab=items&utm_source=mail"])
        return f"{prefix}/b{i}x{j}/orders/6ba7b810-9dad-11d1-80b4-{rng.randrange(16**12):012x}{tab}"
    if shape == 2:
        return f"{prefix}/c{i}x{j}/search/caf%C3%A9%20au%20lait%20{rng.randrange(1000)}?page={rng.randrange(1, 50)}"
    return f"{prefix}/d{i}x{j}/files/docs/2024/report%20{rng.randrange(100)}.pdf"


def main() -> None:
    trackc = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, ".build", "debug", "trackc")
    sizes = [int(size) for size in sys.argv[2:]] or [100, 1000, 10000]
    os.makedirs(WORK, exist_ok=True)
    for size in sizes:
        entries = size // 10
        lines = [
            "version: 1",
            "screens:",
            *[f"  {screen}: {{page_events: {{enter: {screen.upper()}_ENTER}}}}" for screen, _ in SHAPES],
            "links:",
            "  hosts: [bench.example.com]",
            "entry_points:",
        ]
        patterns = []
        for i in range(entries):
            screen, pattern = SHAPES[i % 4]
            links = [pattern.format(i=i, j=j) for j in range(10)]
            patterns += links
            lines.append(f"  e{i}: {{screen: {screen}, links: [{', '.join(repr(link).replace(chr(39), chr(34)) for link in links)}]}}")
        config = os.path.join(WORK, f"routes-{size}.yaml")
        with open(config, "w") as file:
            file.write("\n".join(lines) + "\n")
        with open(os.path.join(WORK, f"patterns-{size}.txt"), "w") as file:
            file.write("\n".join(patterns) + "\n")
        rng = random.Random(size)
        urls = []
        for _ in range(1000):
            i = rng.randrange(entries)
            j = rng.randrange(10)
            if rng.random() < 0.1:
                urls.append(f"https://bench.example.com/z{i}x{j}/items/1")
            else:
                urls.append(url(i % 4, i, j, rng))
        with open(os.path.join(WORK, f"urls-{size}.txt"), "w") as file:
            file.write("\n".join(urls) + "\n")
        output = os.path.join(HERE, "Sources", f"Routes{size}")
        os.makedirs(output, exist_ok=True)
        subprocess.run([trackc, "generate", config, "--name", f"Routes{size}", "--output", output], check=True)


if __name__ == "__main__":
    main()
