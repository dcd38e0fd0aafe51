#!/usr/bin/env python3
"""Writes a large, valid trackc config: SCREENS screens x HANDLERS handlers (default 5,000 x 20, about 6 MB).

    generate_config.py OUT [SCREENS [HANDLERS [EVENT_ID_PATTERN]]]


Deterministic (no randomness), so every run of the benchmark lints the same bytes.
One handler a screen uses the long form with destinations and properties, as real configs do.
"""
import sys

def main() -> None:
    out = sys.argv[1]
    screens = int(sys.argv[2]) if len(sys.argv) > 2 else 5000
    handlers = int(sys.argv[3]) if len(sys.argv) > 3 else 20
    pattern = sys.argv[4] if len(sys.argv) > 4 else "^[A-Z][A-Z0-9_]*$"
    verbs = ["Pressed", "Tapped", "Changed", "Selected", "Swiped"]
    nouns = ["Fav", "Share", "Buy", "Filter", "Sort", "AddToCart", "Card", "Banner", "Search", "Avatar"]
    lines = [
        "version: 1",
        "conventions:",
        f"  event_id_pattern: '{pattern}'",
        "destinations:",
        "  firebase: {}",
        "  mixpanel:",
        "    description: Product analytics",
        "defaults:",
        "  destinations: [firebase, mixpanel]",
        "screens:",
    ]
    for s in range(screens):
        name = f"Feature{s % 50}.Screen{s:05d}Controller"
        tag = f"S{s:05d}"
        lines.append(f"  {name}:")
        lines.append("    page_events:")
        lines.append(f"      enter: PAGE_{tag}_ENTER")
        lines.append(f"      leave: PAGE_{tag}_LEAVE")
        lines.append("    control_events:")
        for h in range(handlers):
            noun = nouns[h % len(nouns)]
            verb = verbs[h % len(verbs)]
            # Swift names are plain keys; Objective-C selectors end in ':' and are quoted.
            handler = f"on{noun}{verb}{h}(_:)" if h % 3 else f'"on{noun}{verb}{h}:"'
            event = f"CTRL_{tag}_{noun.upper()}_{h}"
            if h % 20 == 19:
                lines.append(f"      {handler}:")
                lines.append(f"        event: {event}")
                lines.append("        exclude: [mixpanel]")
                lines.append(f"        properties: {{ source: screen_{s}, position: {h}, promoted: true }}")
            else:
                lines.append(f"      {handler}: {event}")
    with open(out, "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")

if __name__ == "__main__":
    main()
