package org.chunkcdm.chunk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.management.HotSpotDiagnosticMXBean;
import java.lang.management.ManagementFactory;
import org.junit.jupiter.api.Test;

/** The cache's byte bound is a bound on heap: G1 humongous chunks are charged the regions they occupy. */
class ChunkCacheFootprintTest {
  /** G1's region size as this JVM reports it, 0 without G1 (computed here independently of the cache). */
  static long region() {
    HotSpotDiagnosticMXBean hs = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
    if (!"true".equals(hs.getVMOption("UseG1GC").getValue())) {
      return 0;
    }
    return Long.parseLong(hs.getVMOption("G1HeapRegionSize").getValue());
  }

  @Test
  void smallChunksAreChargedTheirLength() {
    ChunkCache c = new ChunkCache(64L << 20);
    c.put("a", 0, new byte[1000]);
    c.put("a", 1, new byte[4096]);
    assertEquals(5096, c.bytes());
  }

  @Test
  void humongousChunksAreChargedWholeRegionsAndTheBoundHolds() {
    long r = region();
    int n = r > 0 ? (int) r : 1 << 20; // one region's worth of data: under G1 it occupies two regions
    long charged = r > 0 ? 2 * r : n;
    assertEquals(charged, ChunkCache.footprint(n));
    long max = 16 * charged;
    ChunkCache c = new ChunkCache(max);
    c.put("a", 0, new byte[n]);
    assertEquals(charged, c.bytes());
    for (int i = 1; i < 40; i++) {
      c.put("a", i, new byte[n]);
      assertTrue(c.bytes() <= max, "cache holds " + c.bytes() + " of " + max);
    }
    assertEquals(16 * charged, c.bytes(), "as many chunks as their heap footprint allows");
    int held = 0;
    for (int i = 0; i < 40; i++) {
      held += c.contains("a", i) ? 1 : 0;
    }
    assertEquals(16, held);
    c.invalidate("a");
    assertEquals(0, c.bytes());
  }
}
