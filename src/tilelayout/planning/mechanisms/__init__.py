"""The ways of moving data, one module or package each: shuffles and byte permutes
(``shuffle/``), staging through shared memory (``staging/``), TMA, collectives."""
