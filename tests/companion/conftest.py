from __future__ import annotations

from collections.abc import Iterator

import pytest

from companion import games


@pytest.fixture
def toy_registered() -> Iterator[None]:
    games.GAMES["toy"] = ("tests.companion.toygame", "Toy", "Toy race")
    yield
    games.GAMES.pop("toy", None)
