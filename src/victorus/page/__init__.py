"""The page of ``victorus serve``: its Python beside its JS. `server` is the app (Starlette
on uvicorn: routes, checks, a socket per page), `table` the one game with its seats, clock
and agents' thread, `page_state` the page's JSON state (pure functions of a game),
`narration` the events of each action and the result in words, `analysis` the search on
request and the review of a finished game; ``web/`` holds the page itself (HTML, CSS and
ES modules), served as package data. The seats and the turn clock it shares with
``victorus play`` stay below (`victorus.session`, `victorus.clock`).
"""
