from bot.cluster import Cluster


def guild_on(shard: int, count: int) -> int:
    """A server id Discord sends to ``shard`` of ``count``."""
    return ((1_000_000 * count + shard) << 22) | 12345


def test_a_server_belongs_to_the_process_of_its_shard_and_dms_to_shard_zeros():
    first, second = Cluster.member(0, 2, 4), Cluster.member(1, 2, 4)
    assert (first.shard_ids, second.shard_ids) == ((0, 1), (2, 3))
    for shard in range(4):
        guild = guild_on(shard, 4)
        assert first.shard_of(guild) == shard
        assert first.owns(guild) == (shard < 2) and second.owns(guild) == (shard >= 2)
    assert first.owns(None) and not second.owns(None)
    assert first.partial and second.partial


def test_one_process_owns_everything_and_names_itself_the_same_after_a_restart():
    alone = Cluster()
    assert not alone.sharded and not alone.partial
    assert all(alone.owns(guild_on(shard, 4)) for shard in range(4))
    assert Cluster(4, (2, 3)).name == Cluster.member(1, 2, 4).name == "shards 2,3 of 4"
    assert not Cluster(4).partial and Cluster(4).shard_ids == (0, 1, 2, 3)


def test_an_announcement_names_the_game_the_match_its_server_and_who_changed_it():
    from bot.match.kernel import Announcement, read_announcement

    payload = '{"game": "airwar", "match": 7, "guild": 123, "by": "shards 0,1 of 4: airwar"}'
    assert read_announcement(payload) == Announcement("airwar", 7, 123, "shards 0,1 of 4: airwar")
    assert read_announcement('{"game": "war", "match": 1, "guild": null, "by": "x"}').guild_id is None
    for broken in ("", "not json", '{"game": "airwar"}', '{"game": "war", "match": "x", "guild": 1, "by": "y"}'):
        assert read_announcement(broken) is None
