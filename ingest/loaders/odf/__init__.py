"""OpenDocument loaders (.odt text documents, .ods spreadsheets), read with lxml from the package's
content.xml, styles.xml (outline levels, list styles) and meta.xml (title, author, dates)."""
