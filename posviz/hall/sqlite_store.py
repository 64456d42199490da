"""The hall's store in one SQLite file (WAL): every process of one machine shares it (`streamlit run`,
or the replicas of deploy/cluster.py without Redis).

WAL lets readers (the lecturer's live count, the students' polls) go on while a writer commits;
synchronous=FULL makes a commit durable before the method returns (an acknowledged answer survives a
killed process and a power cut). Each thread has its own connection (Streamlit runs each session's
script in a thread of its own); a write waits up to BUSY_MS for another process's. Each deciding
method is one `BEGIN IMMEDIATE` transaction.
"""
import math
import sqlite3
import threading

from posviz.hall import store as s

BUSY_MS = 5000
_SCHEMA = """
CREATE TABLE IF NOT EXISTS rooms (code TEXT PRIMARY KEY, key_hash TEXT NOT NULL, created REAL NOT NULL,
    expires REAL NOT NULL, question TEXT NOT NULL DEFAULT '', phase TEXT NOT NULL DEFAULT 'idle',
    version INTEGER NOT NULL DEFAULT 0, answers INTEGER NOT NULL DEFAULT 0);
CREATE TABLE IF NOT EXISTS asked (code TEXT NOT NULL, question TEXT NOT NULL, seq INTEGER NOT NULL,
    PRIMARY KEY (code, question));
CREATE TABLE IF NOT EXISTS answers (code TEXT NOT NULL, question TEXT NOT NULL, voter TEXT NOT NULL,
    value TEXT NOT NULL, PRIMARY KEY (code, question, voter));
CREATE TABLE IF NOT EXISTS hits (bucket TEXT PRIMARY KEY, win INTEGER NOT NULL, n INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS rooms_expires ON rooms (expires);
"""
_ROOM_FIELDS = ("code", "key_hash", "created", "expires", "question", "phase", "version", "answers")


class SqliteStore(s.Store):
    """posviz.hall.store.Store in the SQLite file `path` (made on first use)."""

    def __init__(self, path):
        self.path = str(path)
        self._local = threading.local()
        self._conns = []
        self._lock = threading.Lock()
        with self._tx() as db:
            for statement in filter(str.strip, _SCHEMA.split(";")):
                db.execute(statement)

    def _db(self):
        db = getattr(self._local, "db", None)
        if db is None:
            db = sqlite3.connect(self.path, timeout=BUSY_MS / 1000, isolation_level=None, check_same_thread=False)
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=FULL")
            db.execute(f"PRAGMA busy_timeout={BUSY_MS}")
            self._local.db = db
            with self._lock:
                self._conns.append(db)
        return db

    def _tx(self):
        return _Transaction(self._db())

    # ------------------------------------------------------------------ rooms
    def create_room(self, room, *, now, max_rooms):
        with self._tx() as db:
            db.execute("DELETE FROM rooms WHERE expires <= ? AND code = ?", (now, room["code"]))
            if db.execute("SELECT 1 FROM rooms WHERE code = ?", (room["code"],)).fetchone():
                return s.TAKEN
            live = db.execute("SELECT COUNT(*) FROM rooms WHERE expires > ?", (now,)).fetchone()[0]
            if live >= max_rooms:
                return s.FULL
            self._purge(db, now)
            db.execute("INSERT INTO rooms (code, key_hash, created, expires) VALUES (?, ?, ?, ?)",
                       (room["code"], room["key_hash"], room["created"], room["expires"]))
        return s.CREATED

    @staticmethod
    def _purge(db, now):
        """Rooms that expired, with their answers (a room is made rarely: the cost goes there)."""
        gone = [r[0] for r in db.execute("SELECT code FROM rooms WHERE expires <= ?", (now,))]
        for code in gone:
            for table in ("answers", "asked", "rooms"):
                db.execute(f"DELETE FROM {table} WHERE code = ?", (code,))     # a constant table name
        db.execute("DELETE FROM hits WHERE win < ?", (math.floor(now / 3600) - 48,))

    def room(self, code, *, now):
        row = self._db().execute(f"SELECT {', '.join(_ROOM_FIELDS)} FROM rooms WHERE code = ? AND expires > ?",
                                 (code, now)).fetchone()
        return None if row is None else dict(zip(_ROOM_FIELDS, row))

    def set_phase(self, code, *, question, phase, now):
        with self._tx() as db:
            if not db.execute("SELECT 1 FROM rooms WHERE code = ? AND expires > ?", (code, now)).fetchone():
                return s.GONE
            db.execute("UPDATE rooms SET question = ?, phase = ?, version = version + 1 WHERE code = ?",
                       (question, phase, code))
            if question:
                db.execute("INSERT OR IGNORE INTO asked (code, question, seq) VALUES (?, ?, "
                           "(SELECT COUNT(*) FROM asked WHERE code = ?))", (code, question, code))
        return s.MOVED

    def live_rooms(self, *, now):
        return self._db().execute("SELECT COUNT(*) FROM rooms WHERE expires > ?", (now,)).fetchone()[0]

    # ------------------------------------------------------------------ answers
    def put_answer(self, code, question, voter, value, *, now, max_answers):
        with self._tx() as db:
            row = db.execute("SELECT question, phase, answers FROM rooms WHERE code = ? AND expires > ?",
                             (code, now)).fetchone()
            if row is None:
                return s.GONE
            if row[0] != question or row[1] != "open":
                return s.NOT_OPEN
            cur = db.execute("UPDATE answers SET value = ? WHERE code = ? AND question = ? AND voter = ?",
                             (value, code, question, voter))
            if cur.rowcount:
                return s.CHANGED
            if row[2] >= max_answers:
                return s.CAPPED
            db.execute("INSERT INTO answers (code, question, voter, value) VALUES (?, ?, ?, ?)",
                       (code, question, voter, value))
            db.execute("UPDATE rooms SET answers = answers + 1 WHERE code = ?", (code,))
        return s.NEW

    def answer_of(self, code, question, voter):
        row = self._db().execute("SELECT value FROM answers WHERE code = ? AND question = ? AND voter = ?",
                                 (code, question, voter)).fetchone()
        return None if row is None else row[0]

    def count(self, code, question):
        return self._db().execute("SELECT COUNT(*) FROM answers WHERE code = ? AND question = ?",
                                  (code, question)).fetchone()[0]

    def values(self, code, question):
        return [r[0] for r in self._db().execute("SELECT value FROM answers WHERE code = ? AND question = ?",
                                                 (code, question))]

    def asked(self, code):
        return [r[0] for r in self._db().execute("SELECT question FROM asked WHERE code = ? ORDER BY seq", (code,))]

    # ------------------------------------------------------------------ rate counters
    def hit(self, buckets, *, window, now):
        win = math.floor(now / window)
        out = []
        with self._tx() as db:
            for b in buckets:
                name = f"{b}/{window}"
                out.append(db.execute(
                    "INSERT INTO hits (bucket, win, n) VALUES (?, ?, 1) ON CONFLICT (bucket) DO UPDATE SET "
                    "n = CASE WHEN win = excluded.win THEN n + 1 ELSE 1 END, win = excluded.win RETURNING n",
                    (name, win)).fetchone()[0])
        return out

    def close(self):
        with self._lock:
            for db in self._conns:
                db.close()
            self._conns.clear()
        self._local = threading.local()


class _Transaction:
    """`with _Transaction(db) as db:` one BEGIN IMMEDIATE ... COMMIT (ROLLBACK on an exception)."""

    def __init__(self, db):
        self.db = db

    def __enter__(self):
        self.db.execute("BEGIN IMMEDIATE")
        return self.db

    def __exit__(self, kind, *_):
        self.db.execute("ROLLBACK" if kind else "COMMIT")
