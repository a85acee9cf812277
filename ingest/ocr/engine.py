"""The OCR engine: RapidOCR (PP-OCRv6 detection and recognition, ONNX, run by onnxruntime) with
the models its wheel ships, named by path so that no code path of the library downloads one.

RapidOCR looks models up by language and version in its `default_models.yaml` and downloads what
its model folder lacks; given `model_path` for each of detection, direction and recognition it
opens those files and nothing else (the recognition model carries its character list, so no
dictionary is fetched either). The engine is built once per process (a worker reads many pages)
and runs on one thread: the workers are the parallelism.
"""

from __future__ import annotations

import functools
import importlib.util
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import LoaderError

INSTALL_HINT = "install the OCR extra (pip install 'ingest[ocr]') to read it"

MODELS = {
    "Det": "PP-OCRv6_det_small.onnx",
    "Rec": "PP-OCRv6_rec_small.onnx",
    "Cls": "ch_ppocr_mobile_v2.0_cls_mobile.onnx",
}
"""The model files of rapidocr 3.10's wheel (its `models/` folder), by the stage that runs each."""

DET_DPI = 116
"""Resolution, in pixels an inch of the page, of the image the detector sees (rapidocr's default
scales the shorter side up to 736, so a rendered page goes in at its full 2000 pixels): a letter
page at 1280 pixels, where 7-point table figures are still 11 pixels a line. Measured on three
pages of tables and two columns at 300 dpi: the same words read (99.1-100%), detection and
recognition 21 s against 35 s. Set by the inch, not by the pixel: a landscape form 16.5 inches
wide squeezed into 1280 pixels had its lines run together (71 lines found against 109)."""

DET_SIDE = round(11 * DET_DPI)
"""The detector's longest side for an image of no known page size (a letter page's)."""

LANGUAGES = frozenset(
    "en ch chinese_cht japan af az bs ca cs cy da de es et eu fi fr ga gl hr hu id is it ku la lb lt lv mi ms mt nl "
    "no oc pl pt qu rm ro rs_latin sk sl sq sv sw tl tr uz vi".split()
)
"""What the packaged PP-OCRv6 recognition model reads (`ppocrv6_langs` in rapidocr's
default_models.yaml): Latin scripts, Chinese and Japanese. Cyrillic, Arabic, Devanagari and the
rest have models of their own that the wheel does not ship."""


@dataclass(frozen=True, slots=True)
class OcrLine:
    """One line the engine read: its text, its box in the image's pixels and its confidence (0-1)."""

    text: str
    box: tuple[float, float, float, float]
    confidence: float


def available() -> bool:
    """Whether the OCR extra is installed (checked without importing it: opencv is slow to load)."""
    return importlib.util.find_spec("rapidocr") is not None


def unread_languages(languages: Sequence[str]) -> list[str]:
    """The languages asked for that the packaged model does not read."""
    return [lang for lang in languages if lang not in LANGUAGES]


@functools.cache
def _engine() -> Any:
    try:
        import rapidocr
    except ImportError as exc:  # find_spec said yes, the import says no: a broken install
        raise LoaderError(f"the OCR engine cannot be loaded ({exc}); {INSTALL_HINT}") from exc
    folder = Path(rapidocr.__file__).parent / "models"
    params: dict[str, Any] = {
        "Global.log_level": "error",
        "Global.model_root_dir": str(folder),
        # The line classifier turns a line it takes for upside down by 180 degrees before reading
        # it; on upright pages it took one line in thirty for upside down (a page of French prose,
        # a court opinion) and the recogniser read it as "eue u e n e u": a page is rendered
        # upright (its /Rotate applied), so no line is turned.
        "Global.use_cls": False,
        # The detector only finds where lines are: on a page scaled to DET_DPI it finds the same
        # lines at two thirds of the time; the recogniser still reads each line from the full image.
        "Det.limit_type": "max",
        "Det.limit_side_len": DET_SIDE,  # set per image by `read_image`
        "EngineConfig.onnxruntime.intra_op_num_threads": 1,
        "EngineConfig.onnxruntime.inter_op_num_threads": 1,
    }
    for stage, name in MODELS.items():
        path = folder / name
        if not path.is_file():  # never let rapidocr fetch it
            raise LoaderError(f"the OCR model {path} is missing: reinstall rapidocr (pip install 'ingest[ocr]')")
        params[f"{stage}.model_path"] = str(path)
    return rapidocr.RapidOCR(params=params)


def read_image(image: Any, inches: float | None = None) -> list[OcrLine]:
    """The lines of an image (a height x width x 3 uint8 array, RGB), top to bottom as found;
    `inches`: the page's longest side, which sets the detector's scale (`DET_DPI`)."""
    engine = _engine()
    # rapidocr reads the detector's limit at each call; its option is one for the engine's life.
    engine._load_det_model().limit_side_len = round(inches * DET_DPI) if inches else DET_SIDE
    result = engine(image)
    if result.boxes is None or result.txts is None:
        return []
    out = []
    for quad, text, score in zip(result.boxes, result.txts, result.scores, strict=True):
        xs = [float(p[0]) for p in quad]
        ys = [float(p[1]) for p in quad]
        if text.strip():
            out.append(OcrLine(text.strip(), (min(xs), min(ys), max(xs), max(ys)), float(score)))
    return out
