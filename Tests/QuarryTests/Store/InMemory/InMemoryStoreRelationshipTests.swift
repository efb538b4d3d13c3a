import Foundation
@testable import Quarry
import QuarryTestSupport
import Testing

@Suite("InMemoryStore relationships")
struct InMemoryStoreRelationshipTests {
    @Test(arguments: InMemoryStoreFixture.Kind.allCases) func toOneAndForeignKeyToManyReadInPrimaryKeyOrder(kind: InMemoryStoreFixture.Kind) throws {
        let f = InMemoryStoreFixture(kind: kind)
        let tech = f.insert("Sector", ["name": .string("Tech")])
        let energy = f.insert("Sector", ["name": .string("Energy")])
        let b = f.insert("Ticker", ["symbol": .string("B")], toOne: ["sector": tech.id])
        let a = f.insert("Ticker", ["symbol": .string("A")], toOne: ["sector": tech.id])
        let ids = try f.insertAll([tech, energy, b, a])

        #expect(try f.related(ids[0], "tickers") == [ids[2], ids[3]])
        #expect(try f.related(ids[1], "tickers") == [])
        #expect(try f.related(ids[3], "sector") == [ids[0]])

        let row = try #require(try f.row(ids[2]))
        try f.save(updates: [f.update(ids[2], from: row, toOne: ["sector": ids[1]])])
        #expect(try f.related(ids[0], "tickers") == [ids[3]])
        #expect(try f.related(ids[1], "tickers") == [ids[2]])
    }

    @Test(arguments: InMemoryStoreFixture.Kind.allCases) func manyToManyIsStoredOnceAndReadFromBothSides(kind: InMemoryStoreFixture.Kind) throws {
        let f = InMemoryStoreFixture(kind: kind)
        let tags = try f.insertAll([f.insert("Tag", ["label": .string("big")]), f.insert("Tag", ["label": .string("tech")])])
        // "Tag.tickers" sorts before "Ticker.tags", so Tag stores; a ticker's list is applied as a diff.
        let ticker = f.insert("Ticker", ["symbol": .string("ACME")], toMany: ["tags": [tags[1], tags[0]]])
        let acme = try f.insertAll([ticker])[0]

        #expect(try f.related(acme, "tags") == [tags[0], tags[1]])
        #expect(try f.related(tags[0], "tickers") == [acme])
        #expect(try f.related(tags[1], "tickers") == [acme])

        let other = try f.insertAll([f.insert("Ticker", ["symbol": .string("ZED")])])[0]
        let tagRow = try #require(try f.row(tags[1]))
        try f.save(updates: [f.update(tags[1], from: tagRow, toMany: ["tickers": [other, acme]])])
        #expect(try f.related(tags[1], "tickers") == [other, acme])
        #expect(try f.related(other, "tags") == [tags[1]])

        let acmeRow = try #require(try f.row(acme))
        try f.save(updates: [f.update(acme, from: acmeRow, toMany: ["tags": [tags[1]]])])
        #expect(try f.related(tags[0], "tickers") == [])
        #expect(try f.related(tags[1], "tickers") == [other, acme])
    }

    @Test(arguments: InMemoryStoreFixture.Kind.allCases) func bothSidesInOneSaveAgree(kind: InMemoryStoreFixture.Kind) throws {
        let f = InMemoryStoreFixture(kind: kind)
        let tag = f.insert("Tag", ["label": .string("x")])
        let t1 = f.insert("Ticker", ["symbol": .string("A")], toMany: ["tags": [tag.id]])
        let t2 = f.insert("Ticker", ["symbol": .string("B")], toMany: ["tags": [tag.id]])
        var tagWithList = tag
        tagWithList.toMany = [f.entity("Tag").relationshipIndex("tickers")!: [t2.id, t1.id]]
        let ids = try f.insertAll([tagWithList, t1, t2])

        #expect(try f.related(ids[0], "tickers") == [ids[2], ids[1]])
        #expect(try f.related(ids[1], "tags") == [ids[0]])
        #expect(f.memory.state.sync { $0.joins.count } == 1)
    }

    @Test(arguments: InMemoryStoreFixture.Kind.allCases) func orderedToManyWithoutInverseKeepsItsOrder(kind: InMemoryStoreFixture.Kind) throws {
        let f = InMemoryStoreFixture(kind: kind)
        let t = try f.insertAll(["A", "B", "C"].map { f.insert("Ticker", ["symbol": .string($0)]) })
        let portfolio = try f.insertAll([f.insert("Portfolio", toMany: ["holdings": [t[2], t[0], t[1]]])])[0]
        #expect(try f.related(portfolio, "holdings") == [t[2], t[0], t[1]])

        let row = try #require(try f.row(portfolio))
        try f.save(updates: [f.update(portfolio, from: row, toMany: ["holdings": [t[1], t[2], t[0]]])])
        #expect(try f.related(portfolio, "holdings") == [t[1], t[2], t[0]])
        #expect(try f.row(portfolio)?.version == 2)
    }

    @Test(arguments: InMemoryStoreFixture.Kind.allCases) func deletingAnObjectRemovesItsJoinEntries(kind: InMemoryStoreFixture.Kind) throws {
        let f = InMemoryStoreFixture(kind: kind)
        let tag = try f.insertAll([f.insert("Tag", ["label": .string("x")])])[0]
        let t = try f.insertAll(["A", "B"].map { f.insert("Ticker", ["symbol": .string($0)], toMany: ["tags": [tag]]) })
        let portfolio = try f.insertAll([f.insert("Portfolio", toMany: ["holdings": [t[0], t[1]]])])[0]

        try f.save(deletes: [(t[0], 1)])
        #expect(try f.related(tag, "tickers") == [t[1]])
        #expect(try f.related(portfolio, "holdings") == [t[1]])

        try f.save(deletes: [(tag, 1), (portfolio, 1)])
        #expect(try f.related(t[1], "tags") == [])
        #expect(f.memory.state.sync { $0.joins.isEmpty })
    }

    @Test(arguments: InMemoryStoreFixture.Kind.allCases) func orderedForeignKeyAndOrderedReadingSideKeepPositions(kind: InMemoryStoreFixture.Kind) throws {
        var b = ModelBuilder()
        b.entity("Playlist") { e in
            e.attribute("name", .string)
            e.toMany("songs", destination: "Song", inverse: "playlist", ordered: true)
            e.toMany("artists", destination: "Artist", inverse: "playlists", ordered: true)
        }
        b.entity("Song") { e in e.toOne("playlist", destination: "Playlist", inverse: "songs") }
        b.entity("Artist") { e in e.toMany("playlists", destination: "Playlist", inverse: "artists") }
        let f = InMemoryStoreFixture(kind: kind, model: try b.build())

        let artists = try f.insertAll([f.insert("Artist"), f.insert("Artist")])
        let playlist = f.insert("Playlist", toMany: ["artists": [artists[1], artists[0]]])
        let s1 = f.insert("Song", toOne: ["playlist": playlist.id]), s2 = f.insert("Song", toOne: ["playlist": playlist.id])
        var withSongs = playlist
        withSongs.toMany[f.entity("Playlist").relationshipIndex("songs")!] = [s2.id, s1.id]
        let ids = try f.insertAll([withSongs, s1, s2])

        #expect(try f.related(ids[0], "songs") == [ids[2], ids[1]])
        // "Artist.playlists" sorts first: Playlist.artists is the reading side, its order kept apart.
        #expect(try f.related(ids[0], "artists") == [artists[1], artists[0]])
        #expect(try f.related(artists[0], "playlists") == [ids[0]])
    }

    @Test(arguments: InMemoryStoreFixture.Kind.allCases) func relationshipIndexOutOfRangeThrows(kind: InMemoryStoreFixture.Kind) throws {
        let f = InMemoryStoreFixture(kind: kind)
        let tag = try f.insertAll([f.insert("Tag", ["label": .string("x")])])[0]
        #expect(throws: QuarryError.self) { try f.store.relatedIDs(of: tag, relationship: 7) }
    }
}
