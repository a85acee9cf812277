"""MIME types the fake knows, and which Google types export to what."""

FOLDER = "application/vnd.google-apps.folder"
GOOGLE_DOC = "application/vnd.google-apps.document"
GOOGLE_SHEET = "application/vnd.google-apps.spreadsheet"
SHORTCUT = "application/vnd.google-apps.shortcut"
XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
EXPORTS = {GOOGLE_DOC: ("text/plain", "text/markdown"), GOOGLE_SHEET: (XLSX,)}
NO_CONTENT = (FOLDER, GOOGLE_DOC, GOOGLE_SHEET, SHORTCUT)
