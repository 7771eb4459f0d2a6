package org.chunkcdm.cli.serve;

/** A refused request: status and a one-line reason. */
final class Refusal extends Exception {
  final int status;

  Refusal(int status, String reason) {
    super(reason, null, false, false);
    this.status = status;
  }
}
