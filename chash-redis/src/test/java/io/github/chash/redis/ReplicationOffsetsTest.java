package io.github.chash.redis;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Which writes every replica has, from the primary's INFO replication. */
class ReplicationOffsetsTest {
  private static String primary(String replId, long offset, long... replicas) {
    StringBuilder info =
        new StringBuilder("# Replication\r\nrole:master\r\nconnected_slaves:")
            .append(replicas.length)
            .append("\r\n");
    for (int i = 0; i < replicas.length; i++) {
      info.append("slave")
          .append(i)
          .append(":ip=127.0.0.1,port=700")
          .append(i)
          .append(",state=online,offset=")
          .append(replicas[i])
          .append(",lag=0\r\n");
    }
    return info.append("master_replid:")
        .append(replId)
        .append("\r\nmaster_repl_offset:")
        .append(offset)
        .append("\r\n")
        .toString();
  }

  @Test
  void replicasInStep_confirmTheReadingsOwnTime() {
    ReplicationOffsets offsets = new ReplicationOffsets();
    assertThat(offsets.read(100, primary("x", 500, 500, 500))).hasValue(100);
  }

  @Test
  void aLaggingReplica_holdsTheConfirmationUntilItReachesTheOffset() {
    ReplicationOffsets offsets = new ReplicationOffsets();
    assertThat(offsets.read(100, primary("x", 500, 500, 300))).isEmpty();
    assertThat(offsets.read(200, primary("x", 700, 700, 450))).isEmpty();
    // the slow replica reached 500, the offset of the reading at 100, not yet 700
    assertThat(offsets.read(300, primary("x", 700, 700, 500))).hasValue(100);
    assertThat(offsets.read(400, primary("x", 700, 700, 700))).hasValue(400);
  }

  @Test
  void anotherStream_noReplicas_orAReplicaRole_confirmNothing() {
    ReplicationOffsets offsets = new ReplicationOffsets();
    assertThat(offsets.read(100, primary("x", 500, 400))).isEmpty();
    // promoted: a new replication id, whose offsets do not compare with the pending 500
    assertThat(offsets.read(200, primary("y", 900, 600))).isEmpty();
    assertThat(offsets.read(300, primary("y", 900))).as("no replica listed").isEmpty();
    assertThat(
            offsets.read(
                400,
                "role:slave\r\nmaster_replid:y\r\nmaster_repl_offset:900\r\nslave_repl_offset:900\r\n"))
        .isEmpty();
    assertThat(offsets.read(500, primary("y", 900, 900))).hasValue(500);
  }
}
