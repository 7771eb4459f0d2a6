package org.chunkcdm.io.remote;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.nio.file.Path;
import org.chunkcdm.io.Locations;
import org.junit.jupiter.api.Test;

/** The location forms: what each parses to, and that a path's text parses back to the same path. */
class RemoteLocationTest {
  @Test
  void s3Url() {
    RemoteLocation l = RemoteLocation.parse("s3://my-bucket/a/b/x.b2nd");
    assertEquals(RemoteLocation.Kind.S3, l.root().kind());
    assertEquals("my-bucket", l.root().bucket());
    assertEquals("a/b/x.b2nd", l.key());
    assertNull(l.root().endpoint());
    assertEquals("s3://my-bucket/a/b/x.b2nd", l.toString());
    assertEquals("", RemoteLocation.parse("s3://b").key());
    assertEquals("d/x.bcolz", RemoteLocation.parse("s3://b/d/x.bcolz/").key());
  }

  @Test
  void cdms3WithoutAuthority() {
    RemoteLocation l = RemoteLocation.parse("cdms3:noaa-goes16?ABI-L1b-RadC/2017/242/00/data.nc#delimiter=/");
    assertEquals("noaa-goes16", l.root().bucket());
    assertEquals("ABI-L1b-RadC/2017/242/00/data.nc", l.key());
    assertNull(l.root().endpoint());
    assertEquals("cdms3:noaa-goes16?ABI-L1b-RadC/2017/242/00/data.nc", l.toString());
    // the same store as s3://, another file system (the paths keep the form they were given in)
    assertEquals(RemoteLocation.parse("s3://noaa-goes16/x").root().storeId(), l.root().storeId());
  }

  @Test
  void cdms3WithAuthority() {
    RemoteLocation l = RemoteLocation.parse("cdms3://my-profile@objects.example.edu/data/gfs0p25?26/03/2020/data.nc#delimiter=/");
    assertEquals("gfs0p25", l.root().bucket());
    assertEquals("my-profile", l.root().profile());
    assertEquals(URI.create("https://objects.example.edu/data"), l.root().endpoint());
    assertEquals("26/03/2020/data.nc", l.key());
    assertEquals("cdms3://my-profile@objects.example.edu/data/gfs0p25?26/03/2020/data.nc", l.toString());
    // netcdf-java's scheme by port: 443 or none https, 80 http without the port, 8080 and friends http, others https
    assertEquals(URI.create("https://h"), RemoteLocation.parse("cdms3://h:443/b?k").root().endpoint());
    assertEquals(URI.create("http://h"), RemoteLocation.parse("cdms3://h:80/b?k").root().endpoint());
    assertEquals(URI.create("http://h:8080"), RemoteLocation.parse("cdms3://h:8080/b?k").root().endpoint());
    assertEquals(URI.create("https://127.0.0.1:9000"), RemoteLocation.parse("cdms3://127.0.0.1:9000/b?k").root().endpoint());
    // host "aws": AWS itself, with a profile
    RemoteLocation aws = RemoteLocation.parse("cdms3://prof@aws/bucket?key/x");
    assertNull(aws.root().endpoint());
    assertEquals("prof", aws.root().profile());
    assertEquals("key/x", aws.key());
  }

  @Test
  void httpUrls() {
    RemoteLocation l = RemoteLocation.parse("https://data.example.org:8443/pub/a%20b/x.b2nd?X-Amz-Signature=secret");
    assertEquals(RemoteLocation.Kind.HTTP, l.root().kind());
    assertEquals(URI.create("https://data.example.org:8443"), l.root().endpoint());
    assertEquals("pub/a b/x.b2nd", l.key());
    assertEquals("X-Amz-Signature=secret", l.query());
    assertEquals("https://data.example.org:8443/pub/a%20b/x.b2nd", l.toString());
    assertFalse(l.toString().contains("secret"));
  }

  @Test
  void credentialsInUrlsAreRefusedWithoutShowingThem() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> RemoteLocation.parse("https://user:hunter2@example.org/x.b2nd"));
    assertFalse(e.getMessage().contains("hunter2"), e.getMessage());
    assertTrue(e.getMessage().contains("example.org/x.b2nd"), e.getMessage());
    IllegalArgumentException e2 = assertThrows(IllegalArgumentException.class,
        () -> RemoteLocation.parse("cdms3://key:secret@host/b?k"));
    assertFalse(e2.getMessage().contains("secret"), e2.getMessage());
    assertEquals("https://example.org/x", RemoteLocation.safe("https://u:p@example.org/x?sig=1#f"));
  }

  @Test
  void malformed() {
    assertThrows(IllegalArgumentException.class, () -> RemoteLocation.parse("s3://"));
    assertThrows(IllegalArgumentException.class, () -> RemoteLocation.parse("cdms3:?key"));
    assertThrows(IllegalArgumentException.class, () -> RemoteLocation.parse("cdms3://host"));
    assertThrows(IllegalArgumentException.class, () -> RemoteLocation.parse("ftp://host/x"));
  }

  @Test
  void pathsRoundTrip() {
    for (String loc : new String[] {"s3://b/d/x.bcolz", "cdms3:b?d/x.bcolz", "cdms3://p@h:8080/e/b?d/x.bcolz",
        "http://127.0.0.1:1234/b/d/x.bcolz", "https://h/a%20b/x"}) {
      Path p = Locations.path(loc);
      assertTrue(Locations.isRemote(p), loc);
      assertEquals(loc, p.toString());
      assertEquals(p, Locations.path(p.toString()));
      Path child = p.resolve("meta/sizes");
      assertEquals(p, child.getParent().getParent());
      assertTrue(child.startsWith(p));
      assertEquals("sizes", child.getFileName().toString());
      assertEquals(child, Locations.path(child.toString()));
      assertEquals(p.resolve("data"), p.resolve("meta/../data").normalize());
      assertEquals("meta/sizes", p.relativize(child).toString());
    }
    assertFalse(Locations.isRemote(Locations.path("file:/tmp/x")));
    assertEquals(Path.of("/tmp/x"), Locations.path("file:/tmp/x"));
  }
}
