"""The hall's store in Redis (POSVIZ_REDIS_URL): every replica of a cluster, on any machine, shares it.

Keys (one room's keys share the hash tag {code}, so they would live on one node of a Redis Cluster too):
  posviz:room:{code}          hash: the room's fields (posviz.hall.store)
  posviz:asked:{code}         sorted set: the questions asked, scored by the order they were first asked
  posviz:ans:{code}:<q>       hash: voter -> answer, one per question
  posviz:rooms                sorted set: live room codes scored by their expiry (the cap on rooms)
  posviz:hit:<bucket>:<win>   counter of one rate window (expires with it)
Every key of a room expires with the room (EXPIREAT). Each deciding method is one Lua script, atomic in
Redis. Durability is the server's: deploy/redis.conf (appendonly yes, appendfsync always) writes and
fsyncs every command to the append-only file before Redis replies, so an acknowledged answer survives
a restart of Redis.
"""
import math

import redis

from posviz.hall import store as s

_P = "posviz:"
ROOMS = _P + "rooms"

_CREATE = """
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', ARGV[5])
local old = redis.call('HGET', KEYS[1], 'expires')
if old and tonumber(old) > tonumber(ARGV[5]) then return 'taken' end
if old then   -- an expired room whose keys Redis has not dropped yet: gone with its answers
  for _, q in ipairs(redis.call('ZRANGE', KEYS[3], 0, -1)) do redis.call('DEL', ARGV[7] .. q) end
  redis.call('DEL', KEYS[1], KEYS[3])
end
if redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[6]) then return 'full' end
redis.call('HSET', KEYS[1], 'code', ARGV[1], 'key_hash', ARGV[2], 'created', ARGV[3], 'expires', ARGV[4],
           'question', '', 'phase', 'idle', 'version', 0, 'answers', 0)
redis.call('EXPIREAT', KEYS[1], math.ceil(tonumber(ARGV[4])))
redis.call('ZADD', KEYS[2], ARGV[4], ARGV[1])
return 'created'
"""
_PHASE = """
local expires = redis.call('HGET', KEYS[1], 'expires')
if not expires or tonumber(expires) <= tonumber(ARGV[3]) then return 'gone' end
redis.call('HSET', KEYS[1], 'question', ARGV[1], 'phase', ARGV[2])
redis.call('HINCRBY', KEYS[1], 'version', 1)
if ARGV[1] ~= '' and not redis.call('ZSCORE', KEYS[2], ARGV[1]) then
  redis.call('ZADD', KEYS[2], redis.call('ZCARD', KEYS[2]), ARGV[1])
  redis.call('EXPIREAT', KEYS[2], math.ceil(tonumber(expires)))
end
return 'moved'
"""
_ANSWER = """
local r = redis.call('HMGET', KEYS[1], 'expires', 'question', 'phase', 'answers')
if not r[1] or tonumber(r[1]) <= tonumber(ARGV[4]) then return 'gone' end
if r[2] ~= ARGV[1] or r[3] ~= 'open' then return 'not_open' end
if redis.call('HEXISTS', KEYS[2], ARGV[2]) == 1 then
  redis.call('HSET', KEYS[2], ARGV[2], ARGV[3])
  return 'changed'
end
if tonumber(r[4]) >= tonumber(ARGV[5]) then return 'capped' end
redis.call('HSET', KEYS[2], ARGV[2], ARGV[3])
redis.call('EXPIREAT', KEYS[2], math.ceil(tonumber(r[1])))
redis.call('HINCRBY', KEYS[1], 'answers', 1)
return 'new'
"""
_FLOATS, _INTS = ("created", "expires"), ("version", "answers")


def _room_key(code):
    return f"{_P}room:{{{code}}}"


def _asked_key(code):
    return f"{_P}asked:{{{code}}}"


def _answers_key(code, question):
    return f"{_P}ans:{{{code}}}:{question}"


class RedisStore(s.Store):
    """posviz.hall.store.Store in the Redis server at `url` (redis://host:port/db)."""

    def __init__(self, url):
        self.url = url
        self.r = redis.Redis.from_url(url, decode_responses=True, socket_timeout=5, socket_connect_timeout=5,
                                      health_check_interval=30, retry_on_timeout=True)
        self._create = self.r.register_script(_CREATE)
        self._phase = self.r.register_script(_PHASE)
        self._answer = self.r.register_script(_ANSWER)

    def create_room(self, room, *, now, max_rooms):
        code = room["code"]
        return self._create(keys=[_room_key(code), ROOMS, _asked_key(code)],
                            args=[code, room["key_hash"], repr(float(room["created"])), repr(float(room["expires"])),
                                  repr(float(now)), int(max_rooms), _answers_key(code, "")])

    def room(self, code, *, now):
        h = self.r.hgetall(_room_key(code))
        if not h or float(h["expires"]) <= now:
            return None
        return {**h, **{k: float(h[k]) for k in _FLOATS}, **{k: int(h[k]) for k in _INTS}}

    def set_phase(self, code, *, question, phase, now):
        return self._phase(keys=[_room_key(code), _asked_key(code)], args=[question, phase, repr(float(now))])

    def live_rooms(self, *, now):
        return self.r.zcount(ROOMS, f"({float(now)!r}", "+inf")

    def put_answer(self, code, question, voter, value, *, now, max_answers):
        return self._answer(keys=[_room_key(code), _answers_key(code, question)],
                            args=[question, voter, value, repr(float(now)), int(max_answers)])

    def answer_of(self, code, question, voter):
        return self.r.hget(_answers_key(code, question), voter)

    def count(self, code, question):
        return self.r.hlen(_answers_key(code, question))

    def values(self, code, question):
        return self.r.hvals(_answers_key(code, question))

    def asked(self, code):
        return self.r.zrange(_asked_key(code), 0, -1)

    def hit(self, buckets, *, window, now):
        win = math.floor(now / window)
        pipe = self.r.pipeline(transaction=True)
        for b in buckets:
            key = f"{_P}hit:{b}:{window}:{win}"
            pipe.incr(key)
            pipe.expireat(key, (win + 2) * window)
        return pipe.execute()[0::2]

    def close(self):
        self.r.close()
