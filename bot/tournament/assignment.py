"""The cheapest assignment of rows to distinct columns (the Hungarian method), used to
seat a rank tier at the tables where it meets the fewest old opponents."""

from __future__ import annotations

from collections.abc import Sequence

from bot.tournament.errors import TournamentError


def cheapest_assignment(cost: Sequence[Sequence[int]]) -> tuple[int, ...]:
    """For each row, a distinct column such that the total cost is least (ties go the
    same way every time). Needs at least as many columns as rows; raises
    :class:`TournamentError` otherwise."""
    rows = len(cost)
    if rows == 0:
        return ()
    columns = len(cost[0])
    if any(len(row) != columns for row in cost) or columns < rows:
        raise TournamentError(f"cannot assign {rows} rows to {columns} columns")
    infinite = 1 + sum(max(row) - min(0, min(row)) for row in cost) * 2
    u, v = [0] * (rows + 1), [0] * (columns + 1)
    owner, way = [0] * (columns + 1), [0] * (columns + 1)  # owner[j]: row (1-based) in j
    for row in range(1, rows + 1):
        owner[0], free = row, 0
        slack, used = [infinite] * (columns + 1), [False] * (columns + 1)
        while owner[free] != 0:
            used[free] = True
            current, delta, nearest = owner[free], infinite, 0
            for j in range(1, columns + 1):
                if used[j]:
                    continue
                reduced = cost[current - 1][j - 1] - u[current] - v[j]
                if reduced < slack[j]:
                    slack[j], way[j] = reduced, free
                if slack[j] < delta:
                    delta, nearest = slack[j], j
            for j in range(columns + 1):
                if used[j]:
                    u[owner[j]] += delta
                    v[j] -= delta
                else:
                    slack[j] -= delta
            free = nearest
        while free:
            previous = way[free]
            owner[free] = owner[previous]
            free = previous
    chosen = [0] * rows
    for j in range(1, columns + 1):
        if owner[j]:
            chosen[owner[j] - 1] = j - 1
    return tuple(chosen)
