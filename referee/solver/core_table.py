# cython: boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False, language_level=3
"""The core search's transposition table (core.py): at each trick's start, keyed by the leader,
the suit lengths and the rule state (the buckets and their entries: core_pool.py)."""
from .core_codes import ACE, DEAL_TRICKS, END_PAIR, END_THIRTEEN, EXACT, PL_BITS, SCORE, TEN, TRICKS, WIDE
from .core_kernel import pile_key
from .core_pool import Pool


class Table(Pool):
    """The transposition table of the core search (core.Search): its keys."""

    def __init__(self, rules, objective, outcome, spend=None):
        super().__init__(rules, objective, outcome, spend)
        self.fates = {}
        self.fate_ids = {}
        self.fate_sigs = []
        self.goals = {}
        self.goal_ids = {}
        self.state_ids = {}
        self.ask_t = 0
        self.key_t = 0

    def _key(self, kk):
        """The bucket's first word: the leader, the perspective team and the rule state the
        objective looks at (the second is the suit lengths, `lens`); `key_t`: the threshold
        (`ask_t`, the question's) as this key's entries keep it."""
        obj = self.objective
        self.key_t = self.ask_t
        state = (self.trump + 1) | self.hidden << 3
        # the futures of a pile with the tens are many: theirs only for the last 7 tricks
        if obj == SCORE and (not (self.r.pile and self.tens_on) or self.number >= 7):
            return self._fate_key(state)
        if self.r.pile:
            state = state << PL_BITS | pile_key(self.r, self.pile, self.pw, self.pace, self.pest, self.pcoll, self.hot)
        if obj != TRICKS and not (obj == DEAL_TRICKS and self.r.end == END_THIRTEEN and not self.r.settled):
            state = state << 11 | self.won[0] | self.won[1] << 4 | (self.first_seven + 1) << 8 | self.play_on << 10
            if self.r.end == END_PAIR:
                # not the trick the trump was shown in: at a trick's start it is always early
                # enough for every pair still to come (kernel.pair_counts)
                state = (state << 9 | (self.run_by + 1) | self.run << 3 | self.deferred << 5 | self.pkind << 6
                         | self.pwinner << 8)
            if self.tens_on:
                state = state << 9 | self.tens[0] | self.tens[1] << 3 | self.pile_tens << 6
            if obj == EXACT:
                state = state << 5 | kk
        if state >> WIDE:
            state = self._state_id(state)
        return self._owners_key(state)

    def _state_id(self, state):
        """A rule state too wide to leave room in one word for the owners of the tens and aces
        (a pile with the tens and ace-on-ace under EXACT reaches 49 bits, and 27 more follow):
        its id among the states this search has met, marked by bit WIDE, so that no id is a
        narrow state and equal states get equal ids."""
        found = self.state_ids.get(state)
        if found is None:
            found = len(self.state_ids)
            self.state_ids[state] = found
        v = found
        mark = 1
        return mark << WIDE | v

    def _fate_key(self, state):
        """SCORE without a deciding pair: the question's goal (_goal: which sequences of trick
        winners from here reach `ask_t`, as far as the tally, the tens and the pile decide it;
        an id below 2**32: ids are fewer than the states they stand for). Its entries keep the
        threshold 0: the goal holds the question whole."""
        goal = self._goal(self._fate(), self.ask_t)
        self.key_t = 0
        return self._owners_key(state << 32 | goal)

    def _goal(self, fate, t):
        """The id of the question "does the value reach t?" after the tally of future `fate`
        (_fate): for every sequence of trick winners from here (and the tens each trick holds),
        whether its outcome reaches t; a court's stop or play-on with its chooser (the court
        team: the fate keeps whether it is the perspective team). Positions whose tallies differ, asked
        different thresholds, share it where the same sequences reach them (Mendikot's "won?"
        after 8 tricks to 0 and after 7 to 1 with a ten each), so their answers meet in the
        table; the answer of the game from here depends on the cards, the rule state of play
        (the key's other fields) and this set alone."""
        k = fate << 20 | (t + 0x20000)  # t within -0x1FFFF..0x20000 (a value + 1)
        v = self.goals.get(k)
        if v is not None:
            return v
        sig = self.fate_sigs[fate]
        if sig[0] == -1:
            goal = (-1, 1 if sig[1] >= t else 0)
        elif sig[0] == -2:
            goal = (-2, sig[3], self._goal(sig[1], t), self._goal(sig[2], t))
        else:
            goal = tuple([self._goal(kid, t) for kid in sig])
        v = self.goal_ids.get(goal)
        if v is None:
            v = len(self.goal_ids)
            self.goal_ids[goal] = v
        self.goals[k] = v
        return v

    def _owners_key(self, state):
        if self.specials & (1 << TEN):
            state = state << 12 | self._owners(TEN)
        if self.specials & (1 << ACE):
            state = state << 12 | self._owners(ACE)
        return state << 3 | self.team << 2 | self.leader

    def _fate(self):
        """SCORE: the id of the tally's future, the outcome for the team of every sequence of
        trick winners (seat by seat in pile and deciding-pair games, each winning card an ace
        or not, a trump or not, where a rule looks at that; trumps established or not, the
        face-down trump shown or not, where that is still open) and of the tens each trick
        holds, from here by the deal's end, pile and pair rules (a court stopped or played
        on). Tallies with the same id play on alike: the table's key keeps the id, so that
        positions reached by different histories meet. (Not the trick the trump was shown
        in: at a trick's start every pair to come ends late enough, kernel.pair_counts.)"""
        opened = 1 if self.r.pile and ((self.r.first_void and self.trump < 0) or (self.r.concealed and not self.revealed)) else 0
        key = (self.number | self.won[0] << 4 | self.won[1] << 8 | self.tens[0] << 12 | self.tens[1] << 15
               | (self.first_seven + 1) << 18 | self.play_on << 20 | self.court_made << 21 | self.ended << 22
               | self.pile_tens << 23 | opened << 26)
        if self.r.pile:
            key = key << PL_BITS | self._pile_word()
        if self.r.pairs:
            key = key << 16 | self._pair_word() << 1 | self.revealed
        v = self.fates.get(key)
        if v is not None:
            return v
        saved = self._fate_saved()
        if self.ended:
            sig = (-1, self._value_now())
        elif self.court_made:  # the court team stops, or plays on
            self.ended = 1
            self.court_made = 0
            stop = self._fate()
            self.ended = 0
            self.play_on = 1
            sig = (-2, stop, self._fate(), 1 if self.first_seven == self.team else 0)  # with its chooser
            self._fate_restore(saved)
        else:
            sig = tuple(self._fate_kids(opened, saved))
        v = self.fate_ids.get(sig)
        if v is None:
            v = len(self.fate_ids)
            self.fate_ids[sig] = v
            self.fate_sigs.append(sig)
        self.fates[key] = v
        return v

    def _fate_kids(self, opened, saved):
        """_fate's ids after each next trick (its winner, how it is won, the tens it holds)."""
        number = self.number
        won0 = self.won[0]
        won1 = self.won[1]
        tens0 = self.tens[0]
        tens1 = self.tens[1]
        pile_tens = self.pile_tens
        piled = self._pile_word()
        paired = self._pair_word()
        shown = self.revealed | self.revealed_trick << 1
        out = 4 - tens0 - tens1 - pile_tens if self.tens_on else 0
        aces = 2 if (self.r.pile and (self.r.ace_on_ace or self.r.ace_seal)) or (self.r.pairs and self.r.ace_rule) else 1
        trumps = 2 if self.r.pile and self.r.ace_seal == 1 else 1
        ways = aces * trumps * (2 if opened else 1)
        shows = 2 if self.r.pairs_hidden and not self.revealed else 1
        kids = []
        ws = 0
        a = 0
        k = 0
        for ws in range(4 if self.r.pile or self.r.pairs else 2):
            for a in range(ways * shows):
                for k in range(out + 1):
                    if a >= ways:  # the face-down trump shown in this trick
                        self.revealed = 1
                        self.revealed_trick = number
                    team = ws & 1
                    taken = 1
                    if self.r.pile:
                        team = self._pile_trick(number, ws, self.trump if (a // aces) % trumps else -2,
                                                ACE if a % aces else ACE - 1, 3)
                        taken = self.taken
                        if opened:
                            self.pest = (a % ways) // (aces * trumps)
                    if team >= 0:
                        self.won[team] += taken
                    self.pile_tens += k
                    if team >= 0:
                        self.tens[team] += self.pile_tens
                        self.pile_tens = 0
                    self.ended = self._ends(number, ws, a % aces)
                    self.number = number + 1
                    kids.append(self._fate())
                    self.number = number
                    self.won[0] = won0
                    self.won[1] = won1
                    self.tens[0] = tens0
                    self.tens[1] = tens1
                    self.pile_tens = pile_tens
                    self._set_pile(piled)
                    self._set_pair(paired)
                    self.revealed = shown & 1
                    self.revealed_trick = shown >> 1
                    self._fate_restore(saved)
        return kids

    def _fate_saved(self):
        """The court's state (first_seven, play_on, court_made, ended), packed for _fate_restore."""
        return (self.first_seven + 1) | self.play_on << 2 | self.court_made << 3 | self.ended << 4

    def _fate_restore(self, saved):
        self.first_seven = (saved & 3) - 1
        self.play_on = (saved >> 2) & 1
        self.court_made = (saved >> 3) & 1
        self.ended = (saved >> 4) & 1

    def _owners(self, r):
        """Who holds each suit's card of rank r (a ten, an ace: cards a rule looks at), three
        bits a suit, 4 for one already played: part of the bucket's key, so that an entry
        holds for positions where those cards lie with the same seats."""
        v = 0
        s = 0
        for s in range(4):
            owner = 4
            if (self.alive[s] >> r) & 1:
                owner = 0
                while owner < 4 and not (self.h[owner * 4 + s] >> r) & 1:
                    owner += 1
                if owner == 4:
                    owner = self.r.caller  # the face-down trump card
            v = v << 3 | owner
        return v
