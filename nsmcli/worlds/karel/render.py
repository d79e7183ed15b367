"""An animated GIF of a Karel trajectory, one frame per action (Pillow, imported only here)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from nsmcli.errors import NsmError
from nsmcli.fileio import atomic_write_bytes
from nsmcli.worlds.karel.world import World

CELL = 24
_WALL = (60, 60, 70)
_FLOOR = (245, 245, 240)
_GRID = (200, 200, 195)
_MARKER = (220, 120, 20)
_AGENT = (30, 90, 200)


def _pillow():
    try:
        from PIL import Image, ImageDraw
    except ImportError:
        raise NsmError("--gif needs Pillow: pip install 'nsmcli[plot]'") from None
    return Image, ImageDraw


def _frame(world: World, caption: str, image_module, draw_module):
    cell = CELL if max(world.height, world.width) <= 30 else max(4, 720 // max(world.height, world.width))
    width, height = world.width * cell, world.height * cell + 18
    image = image_module.new("RGB", (width, height), _FLOOR)
    draw = draw_module.Draw(image)
    for r in range(world.height):
        for c in range(world.width):
            box = (c * cell, r * cell, (c + 1) * cell - 1, (r + 1) * cell - 1)
            if (r, c) in world.walls:
                draw.rectangle(box, fill=_WALL)
                continue
            draw.rectangle(box, outline=_GRID)
            count = world.markers.get((r, c), 0)
            if count:
                pad = cell // 5
                draw.ellipse((box[0] + pad, box[1] + pad, box[2] - pad, box[3] - pad), fill=_MARKER)
                if count > 1 and cell >= 16:
                    draw.text((box[0] + cell // 2 - 3, box[1] + cell // 2 - 6), str(count), fill=(0, 0, 0))
    r, c = world.agent
    x0, y0, s = c * cell, r * cell, cell
    tips = {  # a triangle pointing N, E, S, W
        0: [(x0 + s / 2, y0 + 2), (x0 + 2, y0 + s - 3), (x0 + s - 3, y0 + s - 3)],
        1: [(x0 + s - 2, y0 + s / 2), (x0 + 2, y0 + 2), (x0 + 2, y0 + s - 3)],
        2: [(x0 + s / 2, y0 + s - 2), (x0 + 2, y0 + 2), (x0 + s - 3, y0 + 2)],
        3: [(x0 + 2, y0 + s / 2), (x0 + s - 2, y0 + 2), (x0 + s - 2, y0 + s - 3)],
    }
    draw.polygon(tips[world.direction], fill=_AGENT)
    draw.text((3, world.height * cell + 3), caption, fill=(0, 0, 0))
    return image


def render_gif(
    states: Sequence[World], actions: Sequence[str], path: Path | str, ms_per_frame: int = 200
) -> Path:
    """Write the trajectory (the start, then the state after each action) as a looping GIF, atomically."""
    image_module, draw_module = _pillow()
    import io

    captions = ["start", *(f"{i + 1}: {a}" for i, a in enumerate(actions))]
    frames = [_frame(w, text, image_module, draw_module) for w, text in zip(states, captions, strict=True)]
    buffer = io.BytesIO()
    durations = [ms_per_frame] * len(frames)
    durations[-1] = max(ms_per_frame, 1500)  # linger on the end
    frames[0].save(buffer, format="GIF", save_all=True, append_images=frames[1:], duration=durations, loop=0)
    atomic_write_bytes(path, buffer.getvalue())
    return Path(path)
