"""Players, teams, turn order and variants (R33, R34, R37, R39 field 6)."""

from __future__ import annotations

from dataclasses import dataclass

from .checks import ErrorFactory, check_int, parse_int, shown
from .constants import NUM_SEATS
from .errors import ConfigError, NotationError

#: R33: present seats per player count.
PRESENT_SEATS = {6: (0, 1, 2, 3, 4, 5), 5: (0, 1, 2, 3, 4), 4: (0, 1, 3, 4),
                 3: (0, 1, 2, 3, 4, 5), 2: (0, 1, 2, 3, 4, 5)}
#: R33: teams as groups of seats.
TEAM_GROUPS = {6: ((0,), (1,), (2,), (3,), (4,), (5,)), 5: ((0,), (1,), (2,), (3,), (4,), (5,)),
               4: ((0,), (1,), (2,), (3,), (4,), (5,)), 3: ((0, 3), (1, 4), (2, 5)),
               2: ((0, 2, 4), (1, 3, 5))}
ALLIED_GROUPS = ((0, 3, 5), (1, 2, 4))
ALLIED_ORDER = (5, 2, 0, 1, 3, 4)
DEFAULT_QUICK_LIMIT = 40
MAX_QUICK_LIMIT = 1_000_000_000


@dataclass(frozen=True)
class Config:
    """Who plays, in which teams and order, under which variant."""

    players: int = 6
    allied: bool = False
    quick: int | None = None           # round limit L of the quick game, or None

    def __post_init__(self) -> None:
        check_int("players", self.players, 2, 6)
        if self.allied and self.players != 6:
            raise ConfigError(f"the allied variant needs 6 players, got {self.players}")
        if self.quick is not None and self.quick < 1:
            raise ConfigError(f"the quick round limit must be at least 1, got {self.quick}")

    @classmethod
    def from_variant(cls, variant: str, players: int | None = None,
                     error: ErrorFactory = ConfigError) -> Config:
        """The configuration a variant string names (R34, R37, R39 field 6) for ``players``
        (None: the variant's own count, or 6); what is wrong is raised as ``error``."""
        allied, quick, variant_players = parse_variant(variant, error)
        if players is not None:
            players = check_int("players", players, 2, 6)
        if variant_players is not None and players is not None and variant_players != players:
            raise error(f"variant {shown(variant, 60)} says {variant_players} players "
                        f"but players={shown(players, 60)}")
        players = variant_players or (6 if players is None else players)
        if allied and players != 6:
            raise error(f"the allied variant needs 6 players, got {players}")
        return cls(players=players, allied=allied, quick=quick)

    @property
    def present(self) -> tuple[int, ...]:
        return PRESENT_SEATS[self.players]

    @property
    def teams(self) -> tuple[int, ...]:
        """Team id of each seat: the lowest seat of its team."""
        groups = ALLIED_GROUPS if self.allied else TEAM_GROUPS[self.players]
        team = [0] * NUM_SEATS
        for group in groups:
            for seat in group:
                team[seat] = min(group)
        return tuple(team)

    @property
    def order(self) -> tuple[int, ...]:
        """Turn order of the present seats (R33, R34)."""
        order = ALLIED_ORDER if self.allied else (0, 1, 2, 3, 4, 5)
        return tuple(s for s in order if s in self.present)

    def variant_string(self, players: bool = True) -> str:
        """R39 field 6; ``players=False`` leaves out ``players<N>`` (for a ``variant``
        argument given beside ``players``, as records and pickles do)."""
        parts = []
        if self.allied:
            parts.append("allied")
        if players and self.players != 6:
            parts.append(f"players{self.players}")
        if self.quick is not None:
            parts.append(f"quick{self.quick}")
        return "+".join(parts) or "standard"


ACCEPTED_VARIANTS = "'standard', or a '+'-joined list of 'allied', 'players<2-5>', 'quick' or 'quick<rounds>'"


def parse_variant(text: str, error: ErrorFactory = NotationError) -> tuple[bool, int | None, int | None]:
    """Parse R39 field 6 (or the API's variant string): (allied, quick limit, players or None)."""
    if not isinstance(text, str) or not text:
        raise error(f"variant must be a non-empty string: {ACCEPTED_VARIANTS}, got {shown(text, 60)}")
    allied, quick, players = False, None, None
    if text == "standard":
        return allied, quick, players
    seen = set()
    for part in text.split("+"):
        name = part.rstrip("0123456789")
        digits = part[len(name):]            # ASCII digits only: int() would take others
        if name in seen or name not in ("allied", "players", "quick", "standard"):
            raise error(f"bad variant part {shown(part, 60)} in {shown(text, 60)}: accepted are "
                        f"{ACCEPTED_VARIANTS}")
        seen.add(name)
        if name == "standard" and len(text.split("+")) > 1:
            raise error(f"'standard' cannot be combined in {shown(text, 60)}: accepted are "
                        f"{ACCEPTED_VARIANTS}")
        if name == "allied" and not digits:
            allied = True
        elif name == "quick":
            quick = parse_int(f"the quick round limit in {shown(part, 20)} (no leading zeros)", digits, 1,
                              MAX_QUICK_LIMIT, error) if digits else DEFAULT_QUICK_LIMIT
        elif name == "players" and digits and digits in ("2", "3", "4", "5"):
            players = int(digits)
        else:
            raise error(f"bad variant part {shown(part, 60)} in {shown(text, 60)}: accepted are "
                        f"{ACCEPTED_VARIANTS}")
    return allied, quick, players
