"""What a page's furniture says, judged from the text alone (ingest.page_furniture)."""

from __future__ import annotations

import pytest

from ingest.page_furniture import furniture_like, is_page_number


@pytest.mark.parametrize(
    "line",
    [
        "PLOS Neglected Tropical Diseases | www.plosntds.org",
        "March 2014 | Volume 8 | Issue 3 | e2748",
        "Download date: 28 Dec 2018",
        "Downloaded from https://academic.example.org/jws/article/12 on 3 May 2022",
        "Journal of Hazardous Materials 282 (2015) 150\u2013157",
        "http://dx.doi.org/10.1016/j.jhazmat.2014.03.045 0304-3894/\u00a9 2014 Elsevier B.V. All rights reserved.",
        "ISSN 1234-5678",
        "\u00a9Lonely Planet Publications Pty Ltd",
        "\u00a9 2021 Korea Institute for Health and Social Affairs and Ministry of Health and Welfare",
    ],
)
def test_furniture(line):
    assert furniture_like(line)


@pytest.mark.parametrize(
    "line",
    [
        "1 https://github.com/example/tool holds the code and the data.",  # a footnote keeps its link
        "The results are shown in Table 3 and discussed on page 4 of the report.",
        "See www.example.com for details of the programme and how to apply for a place.",
        "Year Ended June 30, 2023 2022 2021",  # a table's column heads: dates alone are no furniture
        "Received 29 December 2013",
        "Contents lists available at ScienceDirect",
        "2.5. Regeneration and reuse experiments",
        "(c) the Company may assign its rights under this Agreement",  # a list's third item
        "Copyright 2020 was a year in which the company restructured its whole business",
    ],
)
def test_not_furniture(line):
    assert not furniture_like(line)


@pytest.mark.parametrize(
    "text, expected",
    [
        ("12", True),
        ("- 3 -", True),
        ("Page 4 of 17", True),
        ("xiv", True),
        ("Figure 2", False),
        ("2023 Annual Report", False),
    ],
)
def test_page_numbers(text, expected):
    assert is_page_number(text) is expected
