"""``make faults``: Crawford's production shape on this machine, with the plugs pulled.

The suite starts a PostgreSQL cluster and a ``redis-server`` of its own
(``tests.private_services``), migrates, and runs every production process as
docker-compose.yml does (``bench.shape``: the web service with its worker processes, a
Celery worker per queue, beat). Players (``tests.faults.bots``) then play matches to the
end over their sockets, one after another, and a Sit & Go through the API, while each
fault (``tests.faults.scenarios``) is injected in turn: Redis stopped, PostgreSQL
restarted, a worker killed in the middle of an adjudication, a post-match analysis or the
computer's move, beat killed, a web process killed with sockets open, and every process
stopped with SIGTERM. A killed process is started again a second later, as compose's
``restart: unless-stopped`` does.

After each fault it measures the time to recover (from the fault's end until ``/healthz``
answers 200 and a player's move is acknowledged again, or the interrupted work is done)
and checks the invariants (``tests.faults.checks``): the ledger sums to zero in every
currency and no balance is negative; every move a player was told was done is in the
log; no match was lost on time (the players always move within a second when they can);
no deadline is left overdue; no match waits for an adjudication; no task is left kept or
stuck; every player whose socket is open is present at their board. It prints one table
and exits non-zero if anything was lost or broken.

    make faults                  # every fault, the outages 15 s and 2 min long
    make faults FAULTS=--short   # CI's form: the short outages and one of each kill
"""
