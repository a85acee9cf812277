"""OCR of page images, offline: the engine (`engine`) and what it reads (`OcrLine`)."""
