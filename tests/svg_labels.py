"""The labels of an SVG flopscope wrote, held to its layout's rules: none
leaves the picture and no two overlap, by the width estimate the layout
uses (svg_text_width in src/session/svg.h: 0.62 em a byte).

  import svg_labels; root, texts = svg_labels.check(path)"""
import xml.etree.ElementTree as ET

SVG = "{http://www.w3.org/2000/svg}"


def check(path):
    root = ET.parse(path).getroot()
    W, H = float(root.get("width")), float(root.get("height"))
    boxes = []
    for t in root.iter(SVG + "text"):
        s = t.text or ""
        size = float(t.get("font-size") or root.get("font-size"))
        w = len(s.encode()) * size * 0.62
        x, y = float(t.get("x")), float(t.get("y"))
        a = t.get("text-anchor", "start")
        x0 = x if a == "start" else x - w / 2 if a == "middle" else x - w
        b = (x0, y - 0.8 * size, x0 + w, y + 0.2 * size)
        assert b[0] >= 0 and b[2] <= W and b[1] >= 0 and b[3] <= H, ("clipped", s, b, W, H)
        boxes.append((b, s))
    for i in range(len(boxes)):
        for j in range(i + 1, len(boxes)):
            a, b = boxes[i][0], boxes[j][0]
            if a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]:
                raise SystemExit("labels overlap: %r %r" % (boxes[i][1], boxes[j][1]))
    return root, [s for _, s in boxes]
