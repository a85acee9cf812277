"""HTML (.html, .htm, web pages saved from a browser, wiki exports, HTML exported from Google Docs):
a DOM walk over lxml.html's tree into headings, paragraphs, lists, tables, code and quotes, with
page chrome (nav, page header and footer, aside, and everything outside `main`) in the furniture
layer. The e-mail and EPUB loaders read their HTML through it."""
