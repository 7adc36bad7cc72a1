#!/bin/sh
# Stands in for ckpt-ilp-worker (CKPT_ILP_WORKER): writes what the request
# ($1) asks to $CKPT_ILP_CAPTURE and a copy of it to $CKPT_ILP_CAPTURE.bin,
# then runs the real worker on it.
"$CKPT_REAL_ILP_WORKER" --describe "$1" > "$CKPT_ILP_CAPTURE" || exit 2
cp "$1" "$CKPT_ILP_CAPTURE.bin" || exit 2
exec "$CKPT_REAL_ILP_WORKER" "$@"
