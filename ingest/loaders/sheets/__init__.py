"""Spreadsheets (.xlsx, .xlsm, .csv): `loader.py` reads sheets into table blocks, `regions.py` finds
the tables on a sheet and its merged ranges, `comments.py` reads cell comments and notes."""
