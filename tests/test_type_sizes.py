"""The body size: the size most characters are set in, whatever the number of lines."""

from ingest.type_sizes import body_size


def test_the_size_with_most_characters_wins_over_the_size_with_most_lines():
    # Five short captions at 8 pt against two long lines of body text at 10 pt.
    assert body_size([(8.0, 10)] * 5 + [(10.0, 80), (10.0, 75)]) == 10.0


def test_a_tie_goes_to_the_size_met_first_and_nothing_gives_zero():
    assert body_size([(9.0, 40), (11.0, 40)]) == 9.0
    assert body_size([(11.0, 40), (9.0, 40)]) == 11.0
    assert body_size([]) == 0.0
