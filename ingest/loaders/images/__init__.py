"""Images (.png, .jpg, .tiff): read by OCR, one page each (a multi-page TIFF's pages in order)."""
