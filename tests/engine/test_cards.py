import pytest

from referee.engine import DECK, Card, InvalidCardError, caller_of, partner, team_of


@pytest.mark.parametrize("text", ["TH", "10H", "th", "10h", "T♥", "10♥", "tH"])
def test_card_spellings_read_as_ten_of_hearts(text):
    assert str(Card.parse(text)) == "TH"


def test_card_round_trips_through_text_and_repr():
    for card in DECK:
        assert Card.parse(str(card)) is card
        assert eval(repr(card)) is card
    assert len({str(c) for c in DECK}) == 52


@pytest.mark.parametrize("text", ["1H", "TX", "", "AH ", "11H", None, 5])
def test_not_a_card_is_refused_with_the_input_quoted_as_json(text):
    import json

    with pytest.raises(InvalidCardError) as info:
        Card.parse(text)
    assert f"not a card: {json.dumps(text)} " in str(info.value)


def test_seats_teams_and_caller():
    assert [team_of(s) for s in range(4)] == [0, 1, 0, 1]
    assert partner(1) == 3 and partner(2) == 0
    assert caller_of(3) == 0 and caller_of(0) == 1


def test_ace_outranks_king_and_two_is_lowest():
    assert Card.parse("AS").strength > Card.parse("KS").strength > Card.parse("2S").strength


@pytest.mark.parametrize("text", [{}, [], None, 3, "SH", "", "x"])
def test_not_a_suit_is_refused(text):
    from referee.engine.cards import parse_suit

    with pytest.raises(InvalidCardError):
        parse_suit(text)
