"""Trees and leaves, shared by Lefe and Dalen.

A tree is a maximal connected set of same-coloured stones. Both games count leaves, but
they disagree about a lone stone: in Lefe a leaf is a stone with *at most* one friendly
neighbour (so a lone stone is a leaf), in Dalen one with *exactly* one. :func:`build_forest`
finds every tree of a position in a single flood fill and records, per stone, how many
friendly neighbours it has; the games then answer "what would placing here do" from these
numbers locally, without building a new board for every candidate cell.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.reports import TreeView


@dataclass(frozen=True, eq=False)
class Forest:
    """Every tree of one position, by cell index.

    ``labels[cell]`` is the tree id of a stone (-1 for an empty cell); ``members[tree]`` its
    cells in ascending (notation) order; ``owner[tree]`` its colour code; ``degree[cell]``
    the stone's number of friendly neighbours; ``leaves[tree]`` its leaf count.
    """

    labels: list[int]
    members: list[list[int]]
    owner: list[int]
    degree: list[int]
    leaves: list[int]

    def trees_of(self, colour: int) -> list[int]:
        return [tree for tree, owner in enumerate(self.owner) if owner == colour]

    def leaf_counts(self, colour: int) -> list[int]:
        return [self.leaves[tree] for tree, owner in enumerate(self.owner) if owner == colour]


def build_forest(
    cells: bytes, neighbours: tuple[tuple[int, ...], ...], lone_stone_is_leaf: bool
) -> Forest:
    """Label every tree of ``cells`` and count its leaves (one flood fill over the board)."""
    size = len(cells)
    labels = [-1] * size
    degree = [0] * size
    members: list[list[int]] = []
    owner: list[int] = []
    leaves: list[int] = []
    for start in range(size):
        colour = cells[start]
        if not colour or labels[start] >= 0:
            continue
        tree = len(members)
        labels[start] = tree
        stack = [start]
        group: list[int] = []
        leaf_count = 0
        while stack:
            cell = stack.pop()
            group.append(cell)
            friends = 0
            for nb in neighbours[cell]:
                if cells[nb] == colour:
                    friends += 1
                    if labels[nb] < 0:
                        labels[nb] = tree
                        stack.append(nb)
            degree[cell] = friends
            if friends == 1 or (friends == 0 and lone_stone_is_leaf):
                leaf_count += 1
        group.sort()
        members.append(group)
        owner.append(colour)
        leaves.append(leaf_count)
    return Forest(labels=labels, members=members, owner=owner, degree=degree, leaves=leaves)


def leaves_after_placing(
    forest: Forest,
    cells: bytes,
    neighbours: tuple[tuple[int, ...], ...],
    cell: int,
    colour: int,
    lone_stone_is_leaf: bool,
) -> tuple[int, set[int]]:
    """Leaf count of the tree a ``colour`` stone at empty ``cell`` would be part of.

    Also returns the ids of the friendly trees that stone would join. Only the new stone and
    its friendly neighbours change their number of friendly neighbours (each gains exactly
    one), so the new count follows from the old trees' counts and those few stones.
    """
    joined: set[int] = set()
    friends = 0
    change = 0
    labels, degree = forest.labels, forest.degree
    for nb in neighbours[cell]:
        if cells[nb] == colour:
            friends += 1
            joined.add(labels[nb])
            before = degree[nb]
            if before == 1:
                change -= 1  # a leaf gains a second friend and stops being one
            elif before == 0 and not lone_stone_is_leaf:
                change += 1  # a lone stone gains its first friend and becomes a leaf
    if friends == 1 or (friends == 0 and lone_stone_is_leaf):
        change += 1  # the new stone is itself a leaf
    total = change
    for tree in joined:
        total += forest.leaves[tree]
    return total, joined


def tree_views(
    forest: Forest, names: tuple[str, ...], colours: tuple[str, str], lone_stone_is_leaf: bool
) -> list[TreeView]:
    """Every tree of a forest in words: its colour, its stones and its leaves, by name."""
    views = []
    for tree, group in enumerate(forest.members):
        leaves = [
            cell
            for cell in group
            if forest.degree[cell] == 1 or (forest.degree[cell] == 0 and lone_stone_is_leaf)
        ]
        views.append(
            TreeView(
                colour=colours[forest.owner[tree] - 1],
                cells=tuple(names[cell] for cell in group),
                leaves=tuple(names[cell] for cell in leaves),
            )
        )
    return views
