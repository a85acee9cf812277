"""MIME types the fake knows, and which Google types export to what."""

FOLDER = "application/vnd.google-apps.folder"
GOOGLE_DOC = "application/vnd.google-apps.document"
GOOGLE_SHEET = "application/vnd.google-apps.spreadsheet"
GOOGLE_SLIDES = "application/vnd.google-apps.presentation"
SHORTCUT = "application/vnd.google-apps.shortcut"
XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
PPTX = "application/vnd.openxmlformats-officedocument.presentationml.presentation"
EXPORTS = {GOOGLE_DOC: ("text/plain", "text/markdown"), GOOGLE_SHEET: (XLSX,), GOOGLE_SLIDES: (PPTX,)}
NO_CONTENT = (FOLDER, GOOGLE_DOC, GOOGLE_SHEET, GOOGLE_SLIDES, SHORTCUT)
EXPORTED_AS_STORED = (GOOGLE_SHEET, GOOGLE_SLIDES)
"""Google types the fake keeps as the bytes of their one export (xlsx, pptx); Drive would also
export a deck as PDF, which the fake cannot make from a .pptx, so it answers that as unsupported."""
