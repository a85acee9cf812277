"""Every tolerance of the PDF reader, named once: what it means, why its value, its unit.

Units: points (1/72 inch) for distances on the page; ems (the line's type size) or line heights where a
distance scales with the type; shares (0-1) of a width, height or count. A rule reads its tolerances
from here so that one number has one name, and two numbers that happen to be equal but mean different
things have two.
"""

# Type sizes (points unless said)

SAME_SIZE = 0.6
"""Points two font sizes may differ by and still be one size of type: embedded sizes are rounded and rescaled, yet a size step is a point or more."""
SAME_SIZE_TIGHT = 0.5
"""Points two lines' sizes may differ by within one block, label or title, where the type is set once (half a size step)."""
LARGER_THAN_BODY = 0.9
"""Points over the body size that make type larger than the body's (a heading's, a figure's title): a size step less the rounding."""
SMALLER_THAN_BODY = 0.8
"""Points under the body size that make type a footnote's."""
BODY_SIZE_FLOOR = 0.3
"""Least tolerance (points) for a line to count as the body's size when the body is small."""
BODY_SIZE_SHARE = 0.06
"""Tolerance for the body's size as a fraction of it, between BODY_SIZE_FLOOR and SAME_SIZE."""
DISPLAY_SIZE_RATIO = 1.5
"""Times the usual size of a page that makes both lines display type (a cover's title), kept apart from the body's lines."""
DROP_CAP_RATIO = 1.8
"""Times a line's size that a drop capital's size is, at least."""
DROP_CAP_REACH = 3
"""Ems (of the line) to the right of a drop capital where its line starts."""

# Rows and edges (shares of a line's height, points)

SAME_ROW = 0.5
"""Share of the shorter line's height two lines overlap by to sit on one row (more than half)."""
SAME_ROW_FIRM = 0.6
"""Share of the shorter line's height overlapped for a margin's line to be on the row of another margin line: firmer than SAME_ROW, as furniture is set on one baseline."""
SAME_ROW_CLOSE = 0.8
"""Share of the shorter line's height overlapped by cells of one grid row or one margin row (set on one baseline, not staggered)."""
TOUCH = 0.5
"""Points two glyph or word edges may be apart and still touch (no space between them)."""
WORD_EDGE_SLACK = 0.5
"""Points a glyph's centre may fall outside a word's box and still be in the word."""
EDGE_SLACK = 0.5
"""Points a box's edge may stand beyond another's and still be inside it, or on it (a drawn rule's rounding)."""
GLYPH_WIDTH = 0.01
"""The least width (points) of a glyph of its own: MuPDF gives a ligature's second character and a combining mark no width, at the glyph's edge."""
GLYPH_ORDER_SLACK = 0.5
"""Points a glyph's centre may stand left of the one before and the run still read left to right."""
SPACE_COVERS = 0.5
"""Share of a glyph's width a space laid over it covers for the space to be over the letter, not between letters."""
ROTATED_DIRECTION = 0.1
"""Vertical part of a line's writing direction above which the line is rotated (cosine-sine units)."""
BASELINE_BACKSTEP = 2
"""Points a continuation of a line may start left of the line's end (a kerned or overlapping span)."""
BASELINE_REACH = 3
"""Ems across which a piece on the same baseline still continues the line (a bullet and its text)."""
SOLID_GUTTER = 0.5
"""Ems between two runs of solid-set script (Han, kana, Hangul) that make a gutter."""
GUTTER_RUN_CHARS = 12
"""Characters both runs hold for a wide gap between them to be a gutter (a marker or a label is shorter)."""
JOINED_LETTERS_GAP = 0.05
"""Ems two right-to-left pieces of a row may be apart and still be one word of joined letters."""
RTL_MIN_GLYPHS = 3
"""Glyphs a span needs before its order is checked for right-to-left text."""
WORD_SPACE_GAP = 0.2
"""Ems: a gap of a fifth of the type's size or more is a word space (Korean's is a third of an em; justified letters stand a few hundredths apart)."""
BASELINE_SLACK = 0.3
"""Ems two characters' baselines may differ by and still be on one line (overprint)."""
OVERPRINT_SHIFT = 0.5
"""Ems a copy of a span may be shifted across and still be the same span printed twice (fake bold)."""
OVERPRINT_WIDTH_SHARE = 0.5
"""Share of a glyph's width a second copy may be offset by and still overprint it."""
OVERPRINT_OFFSET = 0.2
"""Ems a second copy of a glyph may be offset by and still overprint it."""

# PyMuPDF codes (not tolerances)

FLAG_BOLD = 16
"""PyMuPDF's span flag for bold type."""
FLAG_MONO = 8
"""PyMuPDF's span flag for monospaced type."""
VECTOR_BLOCK = 3
"""PyMuPDF's block type of a vector drawing."""
PAPER = 0xFFFFFF
"""The paper's colour: a fill in it is no shading, no bar."""
BLOCK_SEGMENT = 100_000
"""Above any PyMuPDF block number: a block's lines below the n-th table get block + n * BLOCK_SEGMENT."""

# Paragraphs and lines

PARAGRAPH_GUTTER = 5.0
"""Narrowest clear vertical gap (points) that separates columns of paragraphs."""
PITCH_MAX = 3
"""Ems between two baselines above which they are no pitch of one block (a gap, not a line step)."""
DEFAULT_PITCH = 1.3
"""Line pitch (ems) assumed when a block shows none: usual leading for body type."""
PARAGRAPH_PITCH_RATIO = 1.35
"""Times a block's own pitch that a line step may reach before it is a paragraph break."""
PARAGRAPH_PITCH_SLACK = 0.15
"""Ems added to the pitch step allowance (rounding of baselines)."""
SENTENCE_BREAK_GAP = 0.2
"""Ems over the own step that a step after a sentence's end must exceed to break the paragraph."""
FIRST_LINE_INDENT = 0.8
"""Ems a line starts right of the line before to be a new paragraph's indented first line."""
SHORT_LINE = 0.2
"""Share of the text width a line stops short of the right edge by to be a paragraph's last line."""
FULL_LINE = 0.9
"""Share of the widest line a line fills to be a full line of text running on."""
FULL_LINE_SLACK = 0.05
"""Share of the text width a full line may stop short of the right edge by."""
SAME_LINE_GAP = 0.5
"""Ems: a block this close after a line is the rest of one visual line set as another block."""
FLUSH_SLACK = 0.3
"""Ems two lines' left edges may differ by and still be flush."""
LEAD_IN_WORDS = 4
"""Words at most in a lead-in ending with a colon ("Note:")."""
CAPS_LINE_LETTERS = 5
"""Letters a line in capitals holds to be a title in capitals rather than an abbreviation."""
COLUMN_GUTTER = 5.0
"""Narrowest gap (points) between side-by-side lines that separates columns."""
COLUMN_MIN_PAIRS = 3
"""Rows set side by side before a block counts as columns rather than a stray label and value."""
COLUMN_MIN_CHARS = 8
"""Characters each of two side-by-side lines holds to be lines of two columns, not a label and its value."""
COLUMN_MEAN_CHARS = 20
"""Mean characters a line of each column holds for the block to be columns of prose."""
LIST_INDENT_STEP = 3
"""Points a list marker moves right or left by to be a new nesting level."""
SHADED_STACKED = 0.3
"""Largest gap (in line heights) between two lines of one shaded block; a paragraph break is wider."""
SHADED_OVERLAP = 0.5
"""Line heights a shaded block's next line may overlap the one before by."""
SHADE_COVER = 0.9
"""Share of a line's width a fill covers to shade the line."""
CALLOUT_SIZE_RATIO = 1.5
"""The figure's type over its label's, at least."""
CALLOUT_GAP = 0.8
"""Line heights below the label's last line after which a line is no longer the label's."""
RIGHT_EDGE = 2.0
"""How far (points) two lines' right edges may stand apart and still be one edge."""
RIGHT_BLOCK_GAP = 0.8
"""Line heights a right-set line may stand below the line before and continue its block."""
TEXT_BOX_MIN_HEIGHT = 10
"""Points high a fill is, at least, to frame a text box."""
TEXT_BOX_MIN_LINES = 3
"""Lines a page holds, at least, before its fills are read as text boxes."""
TEXT_BOX_MAX_PAGE_SHARE = 0.5
"""Share of the page above which a fill is the page's background, not a text box."""

# Headings

MAX_HEADING_LEVEL = 9
"""Deepest heading level a block holds (Word's and HTML's outline stop there)."""
UNDER_LINE_OVERLAP = 0.2
"""Line heights a unit may start above a line's bottom and still be right under it."""
UNDER_LINE_REACH = 1.5
"""Line heights below a line within which a unit is right under it."""
OVER_TABLE_OVERLAP = 0.2
"""Ems a table may start above a head's bottom and the head still be over it."""
OVER_TABLE_REACH = 1.5
"""Ems below a head within which a table starts for the head to be over it."""
COLUMN_HEAD_WORDS = 6
"""Words a head over a table's columns holds, at most."""
COLUMN_HEAD_INDENT = 0.3
"""Share of the table's width a column head is indented by from the table's leading edge, at least."""
COLUMN_HEAD_OFF_CENTRE = 0.15
"""Share of the table's width a column head's middle is off the table's, at least (a centred title is no column head)."""
HEADING_MAX_LINES = 3
"""Lines a heading holds, at most."""
HEADING_MAX_CHARS = 150
"""Characters a heading holds, at most."""
HEADING_MAX_COMMAS = 3
"""Commas that make a line a list or a sentence, not a title."""
HEADING_SENTENCE_WORDS = 8
"""Words in a line ending with a period above which it is a sentence, unless labelled."""
HEADING_STRONG_RATIO = 1.2
"""Times the body size that makes larger type a heading on size alone."""
HEADING_LINE_WORDS = 8
"""Words a line of a heading holds, at most (unless it is the last line and numbered)."""
HEADING_BOLD_WORDS = 14
"""Words a bold line holds, at most, to be a heading on weight alone."""
NUMBERED_CAPS_WORDS = 20
"""Words at most in a two-line numbered heading in capitals at the body's size."""
BODY_SIZE_HEADING_CHARS = 100
"""Characters at most in a one-line heading at the body's size."""
BODY_SIZE_HEADING_WORDS = 12
"""Words at most in a one-line heading at the body's size."""
CAPITALS_HEADING_WORDS = 10
"""Words at most in a line in capitals that is a heading at the body's size."""
ITALIC_TITLE_WORDS = 10
"""Words at most in an italic subheading at the body's size."""
ITALIC_TITLE_LETTERS = 0.8
"""Share of an italic subheading's characters (no spaces) that are letters, at least (no formula)."""
TEXT_AREA_MIN_LINES = 10
"""Lines of paragraphs needed before the body's text edges are measured."""
CENTRED_SLACK = 0.04
"""Share of the text width a centred line's middle may be off the text's middle."""
CENTRED_INDENT = 0.15
"""Share of the text width a centred line starts in from the left edge, at least."""
TOC_MATCH_MAX_LINES = 4
"""Lines at most of a unit matched to an outline entry's title."""
ROW_CELLS_REACH = 3
"""Line heights above a line searched for cells that share its row."""
SHORT_CELL_CHARS = 30
"""Characters at most in a short cell beside or under a heading-like line (a value, a check box's label)."""
COLUMN_HEADS_REACH = 8
"""Line heights below two heads searched for the short cells of their columns."""
GRID_UNDER_HEADS = 3
"""Line heights below two heads within which a ruled grid makes them a table's heads."""
ALIGNED_MIDDLES = 4
"""Points two cells' edge sums may differ by (twice the 2-point edge tolerance): middles aligned."""
GUTTER_CHECK_REACH = 3
"""Line heights above and below a line searched for a line crossing the gutter before it."""
PROSE_NEAR_REACH = 2.5
"""Line heights above and below a line searched for prose beside it."""
PROSE_LINE_CHARS = 40
"""Characters a line holds, at least, to be prose rather than a cell."""
LABEL_MAX_LINES = 3
"""Lines a paragraph holds, at most, to follow a section label as its title."""
LABEL_REACH = 6
"""Line heights below a section label within which its title starts."""
LABEL_PROSE_WORDS = 20
"""Words that make a unit prose rather than a section label's entry."""
LABEL_MIN_ENTRIES = 3
"""Label entries on a page, at least, for the page to be a list of labels."""
SERIES_MIN_MEMBERS = 3
"""Members of a series that show its type holds no other heading (two items of an 8-K hold too little to tell)."""
TITLE_MAX_WORDS = 14
"""Words at most in a statement's title."""
TITLE_OVERLAP = 0.5
"""Line heights a statement title's next line may overlap the period line above it by."""
HEAD_REACH = 1.5
"""Line pitches below a table's head within which the head's next line stands."""

# Page margins and running furniture

MARGIN_BAND = 0.13
"""Share of the page height at top and bottom where headers, footers and page numbers live."""
LINE_NUMBER_GUTTER = 0.25
"""Share of the page width, from the left, where a line-number gutter sits."""
RECURRING_PAGES = 4
"""A line recurs when found on a quarter of the pages (this divisor), two at least."""
SIDE_MARGIN_LEFT = 0.15
"""Share of the page width left of which a line is in the left margin."""
SIDE_MARGIN_RIGHT = 0.85
"""Share of the page width right of which a line is in the right margin."""
LINE_NUMBER_MIN = 3
"""Numbers in the gutter, at least, for it to be a line-number gutter."""
BAND_BELOW_REACH = 6
"""Line pitches below a top band's row searched for the body that follows it."""
BAND_GAP = 1.5
"""Line pitches of clear space below a top band's row that sets it apart from the body."""
MARGIN_PROSE_CHARS = 20
"""Characters a margin line holds, at least, to be checked as prose."""
MARGIN_LINE_REACH = 1.3
"""Line heights within which the next line of a margin block follows."""
MARGIN_STACK_GAP = 0.6
"""Line heights two stacked margin lines may stand apart by and be one entry."""
REJOIN_LARGER = 1.3
"""Times the smallest size of a recurring line that makes a header line a title returned to the body."""
REJOIN_MIN_PAGES = 6
"""Pages a document holds, at least, before a repeated title line is left in the margin."""
REJOIN_TITLE_WORDS = 3
"""Words a repeated line holds, at least, to be a title, not a column's head ("Total")."""
REJOIN_HEADED_REACH = 3.0
"""Line heights a headed or captioned margin group reaches back to the body (others: two)."""
REJOIN_REACH = 3
"""Line heights between a margin line and the body for it to return to the body."""

# Figures and plots

FIGURE_MIN_PATHS = 8
"""Paths that make a drawing a figure: a frame or an underline is one or two."""
FIGURE_NEAR = 4.0
"""Paths closer than this (points) belong to one drawing."""
FIGURE_GRID_CELL = 4
"""Side of the squares paths are filed under, in FIGURE_NEAR."""
FIGURE_MARK_AREA = 6000.0
"""Largest path (square points) that counts as a mark of a drawing; a bar of a chart is smaller."""
FIGURE_LABEL_MARGIN = 10.0
"""How far outside the drawn area a figure's labels reach (tick labels, axis titles), at least; two of the label's own em otherwise."""
FIGURE_TABLE_PAD = 3
"""Points a table's box is widened by before drawings within it are the table's."""
FIGURE_TABLE_SHARE = 0.5
"""Share of the lines over a drawn region, at least, that the alignment rule reads as table rows
for the region to be a table (shaded rows, underlined totals), not a figure: on the FinanceBench
filings such tables have 70-100% of their lines in rows, a chart's scattered labels none (an
inset table beside a chart, a minority, leaves the chart a figure)."""
FIGURE_SHADE_MAX_SHARE = 0.5
"""Share of a drawn region a fill covers, at most, to be a row's or a cell's shading under its
text; a larger one is a background under the whole drawing (a chart's plot area)."""
FIGURE_TABLE_ADJOIN = 2
"""Line heights (the region's tallest line) a table may stand under or over a shaded region for
the region to be its head or one of its rows: MuPDF leaves 1-1.5 between a shaded head and the
table's first row on the filings; a chart's caption or a table beside it stands further off."""
SHAPE_PIECE_ALIGN = 0.5
"""Points two pieces' edges across a band (top and bottom, or sides) may differ and the pieces
still draw one rule or one band (a filing's pieces share them to a tenth of a point)."""
SHAPE_PIECE_GAP = 1.0
"""Points two pieces of one rule or band may stand apart end to end: a grid's crossing rule (its
width, under a point) sits between the pieces of the rule across it."""
ROW_BAND_SHORT = 2.0
"""Points a fill may fall short of a drawn region's width at each end and still be a row's
shading across it (the region's rules may overhang it by a stroke's width)."""
FIGURE_MIN_SIDE = 30
"""Points wide and high a drawing is, at least, to be a figure."""
FIGURE_MAX_PAGE_SHARE = 0.6
"""Share of the page a drawing or image covers, at most, to be a figure (more is a frame or a background)."""
FIGURE_MIN_PAGE_SHARE = 0.01
"""Share of the page an image covers, at least, to be a figure (less is an icon)."""
FIGURE_TITLE_LETTERS = 4
"""Letters a larger line over a figure holds, at least, to be its title."""
FIGURE_LABEL_CHARS = 40
"""Characters above which a line in a figure is prose, not a label."""
FIGURE_LABEL_WORDS = 6
"""Words above which a line in a figure is prose, not a label."""
AXIS_THIN = 3
"""Points thick at most for a path to be an axis or a rule."""
AXIS_LENGTH = 30
"""Points long at least for a thin path to be an axis."""
PLOT_SHAPE_MIN_SIDE = 10
"""Points: shortest side of a non-rectangle drawn shape that counts as a plot's shape."""
PLOT_MIN_SIDE = 30
"""Points wide and high a grid is, at least, to be a plot's frame."""
PLOT_MIN_LABELS = 3
"""Labels in a plot's frame, at least, half of them numbers (its ticks)."""
PLOT_MIN_MARKS = 8
"""Drawn marks in a grid that make it a plot's frame rather than a table (a frame holds none)."""
PLOT_MARK_THICK = 3
"""Points thick a non-rectangle path is, above which it is a plot's mark, not a rule."""
PLOT_MARK_SMALL_RECT = 6
"""Points: largest side of a rectangle that is a plot's mark (a dot, a legend's key)."""
PLOT_MIN_CELLS = 12
"""Cells a grid holds, at least, to be judged a plot by its empty cells."""
PLOT_TEXT_CELLS = 0.15
"""Share of a plot's cells that hold text, below which the grid is a plot."""
PLOT_MARKS_PER_TEXT = 3
"""Marks per text cell a plot holds, at least."""
BAR_CHART_MIN_BARS = 4
"""Bars standing on one baseline that make a grid a bar chart's frame."""
BAR_MIN_WIDTH = 3
"""Points: a bar's shorter side is wider than this (a rule is thinner)."""
BAR_MAX_SHARE = 0.5
"""Share of the grid's width a bar is narrower than."""
BAR_MIN_HEIGHTS = 3
"""Distinct bar heights a bar chart shows, at least."""
STROKE_THIN = 3
"""Points thick at most for a stroked path to be a line, drawn by its width."""
STROKE_HALF_WIDTH = 0.5
"""Half a stroke's width (points) taken when the page has no thin strokes to measure."""
FOOTNOTE_LOWER_HALF = 0.5
"""Share of the page height below which footnotes start."""
FOOTNOTE_MIN_CHARS = 20
"""Characters a footnote holds, at least."""
PROSE_BESIDE_OVERHANG = 4
"""A table with prose beside it is widened beyond a quarter (this divisor) of its width no more."""
GARBAGE_DOCUMENT = 0.5
"""Share of a document's characters on garbage pages (or, in a repaired file, of its pages left with nothing) that fails it."""

# Tables

SNAP = 3.0
"""Rules closer than this (points) lie on one line; also the join and crossing tolerance."""
THIN = 3.0
"""A filled or stroked rectangle at most this thick (points) is a rule, not a box."""
GRID_MIN_VERTICALS = 3
"""Vertical rules a grid needs, at least (two columns)."""
FORM_BLANK_ROWS = 2
"""Empty rows a ruled grid holds under its heads, at least, to be a form left blank (a ledger's
rows to write in; a loan note's schedule of advances has thirty), a table though only its heads
hold text: a box of one row of text is a frame."""
FORM_HEADS = 3
"""Filled head cells a blank form shows, at least: two are a label and its value in a box."""
HEAD_MAX_CHARS = 100
"""Longest cell a row of column heads holds; a longer one is prose (a paragraph the grid caught)."""
FILE_CELL = 32.0
"""Side (points) of the squares areas are filed under, so that a fill meets only its neighbours."""
MAX_SHADES = 200
"""Fills of one colour beyond which the colour is a chart's, not shading (and the search costly)."""
SHADE_INSET = 0.1
"""Share of a fill's width within which a fill inside it stands in from its edges (a cell's shading)."""
MIN_FILLED = 0.5
"""Share of a grid's cells that hold text, at least, for it to be a table."""
PROSE_CHARS = 300
"""A cell this long holding sentences is a paragraph rather than a value."""
PROSE_SHARE = 0.8
"""Share of the grid's text in prose cells above which the grid frames prose."""
PROSE_LETTERS_PER_DIGIT = 4
"""Letters per digit in a cell above which it is prose, not figures."""
RULE_TABLE_MIN_WIDTH = 60.0
"""Shortest rule (points) that spans a table: shorter ones underline a cell or a word."""
RULE_PROSE_WORDS = 6
"""Words in one run that make a row prose (a caption, a paragraph) rather than a table's row."""
RULE_LINE_WORDS = 8
"""Words that make a line beside the rules a column's prose (a full line of a paper's column holds eight or more)."""
RULE_MAX_CELL = 100
"""Longest phrase (characters) a cell of a ruled table holds."""
RULE_MIN_ROWS = 3
"""Rows a ruled table holds, at least."""
RULE_COLUMN_EDGE = 2.0
"""Points within which the lines of a text column beside the rules share their facing edge."""
RULE_UNDER = 3.0
"""How far (points) a line's words may end above or below a rule that underlines them."""
RULE_LEVEL = 0.5
"""Rules drawn on one line (points apart at most): a statement's column rules are; a link's underline, a point or two lower, is not."""
RULE_COVERED = 0.9
"""Share of a rule's length that words over it cover for the rule to underline them."""
RULE_WORD_CENTRE = 0.3
"""Share of a line's height a word's middle may be off the line's middle and be on it."""
THIRDS = 3
"""Denominator of the shares in thirds a ruled column is judged by (figures under a third, edges on two thirds)."""
RULE_ROW_STEP = 0.5
"""Share of the median line height that separates two rows of a ruled table."""
RULE_TRAIL_GAP = 3.0
"""Row pitches (the median step between a ruled table's rows) over which a last line without
figures stands below the rest: no row of the table (a folio the page's bottom rule took in)."""
RULE_GRID_HELD = 0.9
"""Share of a grid's words a table ruled across must hold, with more words besides, to take the
grid's place where their boxes overlap: rules outside a grid (a shaded block of heads, a body
ruled cell by cell) frame the whole table, heads and body, and read the grid's words again; less
than nine in ten, the two tables only meet (a ruled reading of a statement's figures without
their labels, which the grid holds): the grid stays, with its cells, and the ruled one goes."""
PHRASE_GAP = 0.5
"""Share of the lower word's height two words may stand apart by and be one phrase."""
RULE_MIN_TOUCHED = 3
"""Columns a phrase touches, at least, for it to be split at them."""
TEXT_TABLE_MIN_ROWS = 3
"""Rows an unruled table holds, at least."""
TEXT_TABLE_MAX_LABEL_ROWS = 2
"""Label rows (a caption of the rows below, a wrapped label) a table may hold in a row."""
TEXT_TABLE_MAX_CELL = 40
"""Longest piece (characters) a cell of an unruled table holds; a row's first piece, its label, may be twice as long."""
LONG_ROW_CELLS = 3
"""Multiples of TEXT_TABLE_MAX_CELL a row of figures only may hold."""
DOUBLE_STRUCK = 1.5
"""Points two rules may be apart and be one double rule."""
CELL_WORD_GAP = 0.8
"""Ems two words may be apart and be one cell."""
YEAR_HEAD_SIZE_SLACK = 0.25
"""Ems a year head's size may differ from its row's."""
TEXT_TABLE_ROW_OVERLAP = 1.5
"""Points a wrapped row may overlap the row above."""
TEXT_TABLE_ROW_GAP = 1.5
"""Line heights a wrapped row may stand below the row above."""

# Text layer verdicts (see text_layer.py)

MIN_CHARS = 20
"""Characters (not spaces) a page needs before its text is judged garbage: a page number, a date or a signature line is too short to tell a cipher from a code."""
UNMAPPED_SHARE = 0.10
"""Share of a page's characters that are no text (control, private use, U+FFFD, unassigned) that makes it garbage; real text has next to none."""
LETTER_SHARE = 0.30
"""Letters and digits below this share of a page's characters make it garbage (real pages keep well over half)."""
IMAGE_FILL = 0.90
"""Share of the page that images cover for it to be taken as a scan (a scanner's page is one image of all of it)."""
TEXT_COVER = 0.05
"""Share of the page that text lines cover below which an image page is a scan (a stamp line; an OCRed scan's text covers 30% and more)."""

# OCR pages (`ocr.py`, `ocr_figures.py`: the page is an image; its lines are what the engine read)

OCR_DRAWING_COVER = 0.2
"""Share of a drawing's box its marks' own boxes must cover (summed): a rendered chart's 0.92 (its
axis joins the bars), a scanned court filing's specks and signatures chained down the page's
height 0.04-0.09 (which made the line-number gutter a figure's labels)."""
OCR_MARK_INK = 224
"""Grey level (0-255) below which a pixel outside the lines read is drawn ink: a chart's pale
bars and grid are drawn too; the paper's white and a render's anti-aliased halo are not."""
OCR_MARK_SPECK = 1.5
"""Points: a run of ink smaller than this both ways is a speck (dust, a letter's dot the
detector left out of its box), no mark of a drawing."""
OCR_MARK_NEAR = 24.0
"""Points between two runs of ink of one drawing: a chart's bars and keys stand apart by the
labels between them (masked out with the text), two lines of type or so."""
